"""The forms of the scoring pages: a model, a checkpoint series, a scoring run, and the choices
of the results pages (linking function, configurations, item filters, exports). The services check
the rest and their messages land on the fields they name."""

from pathlib import Path
from typing import Any, cast

from django import forms

from mpp_studio.evaluation.linking_choice import linking_choices
from mpp_studio.evaluation.models import LanguageModel, ScoreConfig, TokenFrequencyTable
from mpp_studio.evaluation.results import MAX_PAGE_SIZE, OUTCOMES
from mpp_studio.evaluation.services import CHUNK_SIZE, DEFAULT_TOKEN_BUDGET
from mpp_studio.evaluation.services.language_models import unigram_baseline_name
from mpp_studio.evaluation.services.runs import MAX_CHUNK_SIZE, MAX_TOKEN_BUDGET
from scoring.checkpoints import MODEL_FILE

METHOD_CHOICES = [("", "Each model's default (causal LMs: causal; masked LMs: pll_word_l2r)")]
METHOD_CHOICES += ScoreConfig.Method.choices
SERIES_KINDS = [c for c in LanguageModel.Kind.choices if c[0] != LanguageModel.Kind.UNIGRAM]
UNITS = {"bits": "bits (−log₂ p)", "nats": "nats (−ln p)"}


def looks_like_path(source: str) -> bool:
    """Return whether a model source names a folder (rather than a Hugging Face id)."""
    return source.startswith(("/", "~", "./", "../", "\\")) or (len(source) > 2 and source[1:3] == ":\\")


class LanguageModelForm(forms.Form):
    """One model: a Hugging Face id or a local folder, or the unigram baseline (no source)."""

    source = forms.CharField(
        max_length=1000,
        required=False,
        label="Hugging Face id or local folder",
        help_text=f"A hub id such as <code>gpt2</code> or <code>EleutherAI/pythia-70m</code> (the "
        f"server must be able to download it), or the path of a model folder on the server holding "
        f"a <code>{MODEL_FILE}</code>. Leave blank for the unigram baseline.",
    )
    name = forms.CharField(
        max_length=200,
        required=False,
        label="Name",
        help_text="How results name it. Blank: the hub id, or the folder's name.",
    )
    revision = forms.CharField(
        max_length=200, required=False, label="Revision", help_text="A hub branch, tag or commit (optional)."
    )
    kind = forms.ChoiceField(
        choices=LanguageModel.Kind.choices, label="Kind", initial=LanguageModel.Kind.CAUSAL
    )
    language = forms.CharField(
        max_length=35,
        initial="en",
        label="Language",
        help_text="en, zh, …",
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        source = str(data.get("source") or "").strip()
        kind = data.get("kind")
        data["source"] = source
        if source and looks_like_path(source) and kind != LanguageModel.Kind.UNIGRAM:
            folder = Path(source).expanduser()
            if not folder.is_dir():
                self.add_error("source", f"'{source}' is not a folder on the server.")
            elif not (folder / MODEL_FILE).is_file():
                self.add_error(
                    "source",
                    f"'{source}' holds no {MODEL_FILE}, so it is not a saved model. For a folder of "
                    "checkpoint-<step> subfolders, register it as a checkpoint series below.",
                )
        if not str(data.get("name") or "").strip():
            if source:
                data["name"] = Path(source).name if looks_like_path(source) else source
            elif kind == LanguageModel.Kind.UNIGRAM:
                data["name"] = unigram_baseline_name(str(data.get("language") or "en").strip() or "en")
        return data


class SeriesForm(forms.Form):
    """A training run's folder of checkpoints, registered as one model per checkpoint."""

    folder = forms.CharField(
        max_length=1000,
        label="Checkpoints folder",
        help_text=f"A folder on the server with subfolders <code>checkpoint-&lt;step&gt;</code> (or "
        f"<code>step&lt;N&gt;</code>), each holding a <code>{MODEL_FILE}</code>.",
    )
    series = forms.CharField(
        max_length=200,
        label="Series name",
        help_text="Each checkpoint becomes a model named “&lt;series&gt; step &lt;step&gt;”.",
    )
    kind = forms.ChoiceField(choices=SERIES_KINDS, label="Kind", initial=LanguageModel.Kind.CAUSAL)
    language = forms.CharField(max_length=35, initial="en", label="Language")


class RunForm(forms.Form):
    """A scoring run: models (or whole series) × datasets, with the scorer's settings."""

    name = forms.CharField(
        max_length=200, required=False, label="Name", help_text="Blank: the models and datasets chosen."
    )
    language_models = forms.TypedMultipleChoiceField(coerce=int, required=False, label="Models")
    series = forms.MultipleChoiceField(required=False, label="Checkpoint series")
    datasets = forms.TypedMultipleChoiceField(
        coerce=int, label="Datasets", error_messages={"required": "Choose at least one dataset."}
    )
    method = forms.ChoiceField(
        choices=METHOD_CHOICES,
        required=False,
        label="Scorer",
        help_text="causal: log-probability of each token given the ones before. pll / pll_word_l2r: "
        "pseudo-log-likelihood of a masked LM (one token, or whole words left to right, masked at a "
        "time). holistic: a masked LM reading the unmasked sentence. unigram: word frequencies only "
        "(with no model chosen, the baseline of each dataset's language).",
    )
    dtype = forms.ChoiceField(
        choices=ScoreConfig.DType.choices,
        initial=ScoreConfig.DType.FLOAT32,
        label="Weights precision",
        help_text="float32 is exact; bfloat16 and float16 are faster on GPUs (scores are still "
        "normalised in float32, so pair decisions rarely change).",
    )
    reduction = forms.ChoiceField(
        choices=linking_choices,
        initial="sum",
        label="Compare sentences by",
        help_text="The linking function results compare a pair's sentences by, by default; any other "
        "(and other parameters) is a click away.",
    )
    score_eos = forms.BooleanField(
        required=False, label="Score the end of sentence (causal models: adds log p(EOS) to each sentence)"
    )
    device = forms.CharField(
        max_length=20,
        initial="auto",
        label="Device",
        help_text="auto (a GPU when the worker has one), cpu, cuda, cuda:1",
    )
    token_budget = forms.IntegerField(
        min_value=64,
        max_value=MAX_TOKEN_BUDGET,
        initial=DEFAULT_TOKEN_BUDGET,
        label="Token budget",
        help_text="Tokens per forward pass; halved by itself on running out of memory.",
    )
    chunk_size = forms.IntegerField(
        min_value=2,
        max_value=MAX_CHUNK_SIZE,
        initial=CHUNK_SIZE,
        label="Sentences per task",
    )

    def __init__(
        self,
        *args: Any,
        models: list[LanguageModel],
        series: list[str],
        datasets: list[tuple[int, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["language_models"]).choices = [(m.pk, m.name) for m in models]
        cast(forms.ChoiceField, self.fields["series"]).choices = [(s, s) for s in series]
        cast(forms.ChoiceField, self.fields["datasets"]).choices = datasets
        self.fields["language_models"].error_messages["invalid_choice"] = (
            "%(value)s is not a model of this project."
        )
        self.fields["datasets"].error_messages["invalid_choice"] = (
            "%(value)s is not a dataset of this project."
        )
        self.fields["series"].error_messages["invalid_choice"] = (
            "%(value)s is not a checkpoint series of this project."
        )


class ResultsForm(forms.Form):
    """The reduction (and, for the leaderboard, the column to sort by) of a results page."""

    reduction = forms.CharField(required=False, max_length=100, label="Compare sentences by")
    sort = forms.CharField(required=False, max_length=200, label="Sort by")


class CompareForm(forms.Form):
    """Two or more configurations scored on one dataset (the view reads the reduction, and
    falls back to the default with a message)."""

    configs = forms.TypedMultipleChoiceField(
        coerce=int,
        label="Configurations",
        error_messages={"required": "Choose at least two configurations to compare."},
    )

    def __init__(self, *args: Any, configs: list[ScoreConfig], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["configs"]).choices = [(c.pk, c.label) for c in configs]
        self.fields["configs"].error_messages["invalid_choice"] = (
            "%(value)s is not a configuration scored on this dataset."
        )

    def clean_configs(self) -> list[int]:
        chosen = list(dict.fromkeys(self.cleaned_data["configs"]))
        if len(chosen) < 2:
            raise forms.ValidationError("Choose at least two configurations to compare.")
        return chosen


class ItemFilterForm(forms.Form):
    """Filters of the per-item drill-down; a bad value is reported and the default used."""

    uid = forms.CharField(required=False, max_length=200, label="Paradigm")
    outcome = forms.ChoiceField(
        choices=[("", "Any outcome"), *((o, o.capitalize()) for o in OUTCOMES)],
        required=False,
        label="Outcome",
        error_messages={
            "invalid_choice": f"“%(value)s” is not an outcome: use {', '.join(OUTCOMES)}. "
            "Showing every outcome."
        },
    )
    q = forms.CharField(required=False, max_length=200, label="Text contains")
    differs_from = forms.IntegerField(required=False, min_value=1, label="Decided otherwise by")
    reduction = forms.CharField(required=False, max_length=100, label="Scores as")
    unit = forms.ChoiceField(
        choices=list(UNITS.items()),
        required=False,
        label="Surprisal in",
        error_messages={"invalid_choice": "“%(value)s” is not a unit: use bits or nats. Showing bits."},
    )
    page = forms.IntegerField(required=False, min_value=1, label="Page")
    page_size = forms.IntegerField(required=False, min_value=1, max_value=MAX_PAGE_SIZE, label="Per page")


class ExportForm(forms.Form):
    what = forms.ChoiceField(
        choices=[
            ("items", "items"),
            ("metrics", "metrics"),
            ("triplets", "triplets"),
            ("triplet_metrics", "triplet_metrics"),
        ]
    )
    format = forms.ChoiceField(choices=[("csv", "csv"), ("jsonl", "jsonl"), ("json", "json")])
    config = forms.IntegerField(required=False)
    reduction = forms.CharField(required=False, max_length=100)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        what, fmt = data.get("what"), data.get("format")
        if what in ("items", "triplets") and fmt not in ("csv", "jsonl"):
            self.add_error("format", "Per-item scores download as csv or jsonl.")
        if what in ("metrics", "triplet_metrics") and fmt not in ("csv", "json"):
            self.add_error("format", "Metrics download as csv or json.")
        if what in ("items", "triplets") and not data.get("config"):
            self.add_error("config", "Per-item scores need the configuration (config=<id>).")
        return data


class TokenFrequenciesForm(forms.Form):
    """Token frequencies of a causal model's tokenizer (SLOR and MORCELA): a text to count, or
    a counts file in ZhoBLiMP's layout."""

    language_model = forms.TypedChoiceField(
        coerce=int,
        label="Tokenizer of",
        help_text="A causal model of this project; every model with the same tokenizer uses the frequencies.",
    )
    origin = forms.ChoiceField(
        choices=TokenFrequencyTable.Origin.choices,
        initial=TokenFrequencyTable.Origin.TEXT,
        label="The file is",
    )
    file = forms.FileField(
        label="File",
        help_text="A UTF-8 text like the model's training data (a sentence or paragraph a line), counted "
        "with the model's tokenizer; or ZhoBLiMP's unigram/&lt;tokenizer&gt;.json (token id to frequency).",
    )

    def __init__(self, *args: Any, models: list[LanguageModel], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.ChoiceField, self.fields["language_model"])
        field.choices = [(m.pk, m.name) for m in models if m.kind == LanguageModel.Kind.CAUSAL]
        field.error_messages["invalid_choice"] = "%(value)s is not a causal model of this project."
