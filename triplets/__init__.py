"""Learner triplets (BLiSS style): learner sentence-correction pairs read from learner corpora,
turned into (corrected, learner, artificial) triplets. This package's readers take M2 files,
parallel learner/corrected tables and metadata tables."""
