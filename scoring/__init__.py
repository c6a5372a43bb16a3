"""Language-model scoring: scorers (causal, masked, unigram) and the metrics computed from their
per-token scores. Plain Python; importing `scoring` never imports torch (the registry loads a
scorer's module only when it is asked for one)."""

from scoring.errors import ScoringError
from scoring.items import Sentence, SentenceScore
from scoring.registry import METHODS, load_scorer
from scoring.settings import ScorerSettings

__all__ = ["METHODS", "ScorerSettings", "ScoringError", "Sentence", "SentenceScore", "load_scorer"]
