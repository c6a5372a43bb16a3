"""The forms of the learner pages: uploading a corpus and starting a triplet run. The services
check everything again; the forms give each field its label, default and help."""

from typing import Any

from django import forms

from mpp_studio.core.uploads import NamedFileField
from mpp_studio.learner.models import LearnerCorpus
from mpp_studio.learner.services import CHUNK_SIZE, MAX_CHUNK_SIZE, MAX_TRIES
from mpp_studio.learner.uploads import max_upload_bytes, size_text


def _limit() -> str:
    return size_text(max_upload_bytes())


class CorpusUploadForm(forms.Form):
    name = forms.CharField(max_length=200, label="Name")
    source_format = forms.ChoiceField(
        label="Format",
        choices=LearnerCorpus.SourceFormat.choices,
        initial=LearnerCorpus.SourceFormat.PARALLEL,
        widget=forms.RadioSelect,
    )
    file = NamedFileField(
        label="Corpus file",
        widget=forms.ClearableFileInput(attrs={"accept": ".m2,.tsv,.csv,.tab,.txt"}),
        error_messages={"required": "Choose the corpus file to upload."},
    )
    metadata_file = NamedFileField(
        label="Metadata file (optional)",
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".tsv,.csv,.tab,.txt"}),
        help_text="A TSV/CSV table with a header row: the id column below, and any of learner_id, "
        "L1, cefr, topic, corpus (any case).",
    )
    annotator = forms.IntegerField(
        label="M2 annotator",
        min_value=0,
        initial=0,
        help_text="M2 files only: whose edits make the corrected sentence "
        "(the number at the end of each A line).",
    )
    learner_column = forms.CharField(label="Learner sentence column", initial="learner", max_length=200)
    corrected_column = forms.CharField(label="Corrected sentence column", initial="corrected", max_length=200)
    id_column = forms.CharField(
        label="Sentence id column",
        initial="sentence_id",
        max_length=200,
        required=False,
        help_text="Leave empty (or leave sentence_id on a table without it) to number the rows.",
    )
    essay_column = forms.CharField(label="Essay id column", initial="essay_id", max_length=200)
    join_key = forms.ChoiceField(
        label="Join the metadata on",
        choices=[("essay_id", "Essay id"), ("pair_id", "Sentence id")],
        initial="essay_id",
    )
    metadata_key = forms.CharField(
        label="Metadata key column",
        required=False,
        max_length=200,
        help_text="The metadata table's id column; empty: essay_id or sentence_id.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = (
            "An ERRANT <code>.m2</code> file, or a tab- or comma-separated table with a header row "
            f"and one learner sentence and its correction a row. Files up to {_limit()}, UTF-8."
        )


class TripletRunForm(forms.Form):
    seed = forms.IntegerField(
        label="Seed",
        initial=0,
        help_text="Orders the candidate errors; the same seed gives the same triplets.",
    )
    strict = forms.BooleanField(
        label="Strict rules only",
        required=False,
        initial=True,
        help_text="Only rules whose context forces the error (agreement, a/an, …); the others may "
        "leave a sentence that is still grammatical.",
    )
    max_tries = forms.IntegerField(
        label="Candidates tried per pair",
        min_value=1,
        max_value=MAX_TRIES,
        initial=20,
    )
    chunk_size = forms.IntegerField(
        label="Pairs per task",
        min_value=1,
        max_value=MAX_CHUNK_SIZE,
        initial=CHUNK_SIZE,
        help_text="The corpus is cut into tasks of this many pairs; "
        "it changes the speed, never the triplets.",
    )
