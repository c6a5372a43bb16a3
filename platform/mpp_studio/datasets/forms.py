"""The form that asks for a new dataset; the service checks the templates and stores it."""

from typing import Any, cast

from django import forms

from mpp_studio.datasets.models import Dataset
from mpp_studio.datasets.services import MAX_PAIRS_PER_PARADIGM
from mpp_studio.datasets.services.datasets import MAX_SEED

UNIQUE_CHOICES = [("", "Each template's own setting"), *Dataset.Unique.choices]


class DatasetCreateForm(forms.Form):
    name = forms.CharField(max_length=200, label="Name")
    description = forms.CharField(
        required=False, label="Description", widget=forms.Textarea(attrs={"rows": 2})
    )
    templates = forms.TypedMultipleChoiceField(
        coerce=int,
        label="Paradigms",
        error_messages={"required": "Choose at least one paradigm."},
    )
    pairs_per_paradigm = forms.IntegerField(
        label="Pairs per paradigm",
        min_value=1,
        max_value=MAX_PAIRS_PER_PARADIGM,
        initial=1_000,
        help_text=f"From 1 to {MAX_PAIRS_PER_PARADIGM:,}. The paradigms chosen that cannot make "
        "this many different pairs are named before anything is generated.",
    )
    seed = forms.IntegerField(
        label="Seed",
        min_value=0,
        max_value=MAX_SEED,
        initial=0,
        help_text="The same paradigms, versions and seed always give the same pairs.",
    )
    unique = forms.ChoiceField(
        label="Uniqueness",
        choices=UNIQUE_CHOICES,
        required=False,
        help_text="What must differ between any two pairs of a paradigm.",
    )

    as_many_as_possible = forms.BooleanField(
        required=False,
        label="As many as possible",
        help_text="A paradigm that cannot make this many different pairs makes all it can and is "
        "done; without this it stops with the reason (its pairs are kept, and it can be retried).",
    )

    balanced_words_only = forms.BooleanField(
        required=False,
        label="Counterbalanced words only",
        help_text="Leave out the words a frequency balance dropped (vocabulary column balanced = 0), "
        "as Zorro does, so the pairs favour no training corpus. Vocabularies without that column "
        "are used whole.",
    )

    def __init__(self, *args: Any, template_ids: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["templates"]).choices = [(pk, str(pk)) for pk in template_ids]
        self.fields["templates"].error_messages["invalid_choice"] = (
            "%(value)s is not a paradigm that can be chosen here (it may have problems, or belong to "
            "another project)."
        )
