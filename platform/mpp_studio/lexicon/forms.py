"""Forms of the vocabulary pages. They parse input; the services check it against the schema."""

import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile

from mpp_studio.core.uploads import NamedFileField, mib_text
from mpp_studio.lexicon.models import Vocabulary, VocabularyItem
from mpp_studio.lexicon.services import max_upload_bytes, size_problem
from mpp_studio.lexicon.services.converted_imports import SOURCE_FORMATS
from vocab.lexicon import FEATURE_TYPES, FeatureSchema, FeatureSpec

FEATURE_PREFIX = "f-"  # item and filter fields of a feature are named f-<feature>
TYPE_HELP = {
    "category": "one of a set of values",
    "text": "any text",
    "bool": "yes or no (stored as 1 / 0)",
    "int": "a whole number",
    "float": "a number",
    "restriction": "a selectional restriction, like animate=1^sg=1;institution=1 (; or, ^ and)",
}


def feature_field_name(feature: str) -> str:
    """Return the name of a feature's field in the item form and the table filter."""
    return FEATURE_PREFIX + feature


class VocabularyForm(forms.Form):
    """Name, language and description: a new empty vocabulary, or a vocabulary's settings."""

    name = forms.CharField(
        max_length=Vocabulary._meta.get_field("name").max_length,
        help_text="Templates use this name in `vocabulary:`.",
    )
    language = forms.CharField(
        max_length=Vocabulary._meta.get_field("language").max_length,
        required=False,
        help_text="A language code such as en, zh or zh-Hans.",
    )
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)


class VocabularyFilesForm(forms.Form):
    """A CSV/TSV table and its optional `.schema.yaml`, each held to the upload limit unread."""

    file = NamedFileField(
        label="Table (CSV or TSV)",
        help_text="UTF-8 text; a header row with at least a form column.",
        widget=forms.ClearableFileInput(
            attrs={"accept": ".csv,.tsv,.tab,.txt,text/csv,text/tab-separated-values"}
        ),
    )
    schema_file = NamedFileField(
        label="Schema file",
        required=False,
        help_text="A .schema.yaml declaring the features; without one, each column becomes a category.",
        widget=forms.ClearableFileInput(attrs={"accept": ".yaml,.yml"}),
    )

    def _clean_upload(self, field: str) -> UploadedFile | None:
        """Return the uploaded file, unread (a job reads it), if it is within the limit."""
        file = self.cleaned_data.get(field)
        if not file:
            return None
        problem = size_problem(file.size or 0)
        if problem is not None:
            raise ValidationError(f"{file.name}: {problem}")
        return file

    def clean_file(self) -> UploadedFile | None:
        return self._clean_upload("file")

    def clean_schema_file(self) -> UploadedFile | None:
        return self._clean_upload("schema_file")


class VocabularyUpdateForm(VocabularyFilesForm):
    """An edited table of a vocabulary (and, if its features changed, its schema file)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields[
            "file"
        ].help_text = "The vocabulary's table as exported and edited: items are matched by their id column."
        self.fields["schema_file"].help_text = (
            "Only if you changed the features: without one, the table is read with the features declared now."
        )


class VocabularyImportForm(VocabularyFilesForm):
    """A CSV/TSV table, its optional `.schema.yaml`, and the name and language to give it."""

    format = forms.ChoiceField(
        label="Format",
        choices=[("ours", "MPP Studio table (CSV/TSV, optional schema file)"), *SOURCE_FORMATS.items()],
        initial="ours",
        required=False,
        help_text="BLiMP and ZhoBLiMP files are converted; a report lists every row or column "
        "that was not kept exactly as written.",
    )
    name = forms.CharField(
        max_length=Vocabulary._meta.get_field("name").max_length,
        required=False,
        help_text="Leave blank to use the schema's name or the file's name.",
    )
    language = forms.CharField(
        max_length=Vocabulary._meta.get_field("language").max_length,
        required=False,
        help_text="Leave blank to use the schema's language.",
    )
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    field_order = ("format", "file", "schema_file", "name", "language", "description")

    def clean_format(self) -> str:
        return str(self.cleaned_data.get("format") or "ours")

    def clean(self) -> dict[str, object] | None:
        data = super().clean()
        if data and data.get("format", "ours") != "ours" and data.get("schema_file"):
            self.add_error(
                "schema_file",
                "A schema file goes with the MPP Studio format only; the "
                "BLiMP and ZhoBLiMP converters write their own schema.",
            )
        return data


def upload_limit_text() -> str:
    """Return the vocabulary upload limit in words ("10 MiB") for the import page."""
    return mib_text(max_upload_bytes())


class LooseMultipleChoiceField(forms.MultipleChoiceField):
    """Checkboxes whose values the service checks (so its message names the declared values)."""

    def valid_value(self, value: str) -> bool:
        return True


def _feature_field(spec: FeatureSpec, separator: str, index: int) -> forms.Field:
    attrs = {"id": f"id_feature_{index}", "data-feature": spec.name}
    help_text = TYPE_HELP[spec.type]
    if spec.description:
        help_text = f"{spec.description} — {help_text}"
    if spec.multi and spec.values is not None:
        return LooseMultipleChoiceField(
            label=spec.name,
            required=False,
            choices=[(v, v) for v in spec.values],
            widget=forms.CheckboxSelectMultiple(attrs=attrs),
            help_text=f"{help_text}; tick every value that applies",
        )
    if not spec.multi and (spec.type == "bool" or spec.values is not None):
        options = [("1", "yes"), ("0", "no")] if spec.type == "bool" else [(v, v) for v in spec.values or ()]
        return forms.CharField(
            label=spec.name,
            required=False,
            widget=forms.Select(attrs=attrs, choices=[("", "— not applicable —"), *options]),
            help_text=help_text,
        )
    if spec.multi:
        help_text = f"{help_text}; separate several values with {separator}"
    return forms.CharField(
        label=spec.name, required=False, widget=forms.TextInput(attrs=attrs), help_text=help_text
    )


class ItemForm(forms.Form):
    """An item: id, form, lemma, pos and one field per feature of the schema."""

    form = forms.CharField(max_length=VocabularyItem._meta.get_field("form").max_length)
    lemma = forms.CharField(
        max_length=VocabularyItem._meta.get_field("lemma").max_length,
        required=False,
        help_text="Leave blank when it is the form.",
    )
    pos = forms.CharField(
        label="Part of speech",
        max_length=VocabularyItem._meta.get_field("pos").max_length,
        required=False,
        help_text="Any tag set: NN, VB, N, CL, …",
    )
    item_id = forms.CharField(
        label="Id",
        max_length=VocabularyItem._meta.get_field("item_id").max_length,
        required=False,
        help_text="A stable id recorded with every pair; leave blank to use the form.",
    )

    def __init__(self, *args: Any, schema: FeatureSchema, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.schema = schema
        for index, (name, spec) in enumerate(schema.features.items()):
            self.fields[feature_field_name(name)] = _feature_field(spec, schema.multi_separator, index)

    @staticmethod
    def initial_for(item: VocabularyItem, schema: FeatureSchema) -> dict[str, object]:
        """Return the form's initial data for an existing item."""
        initial: dict[str, object] = {
            "form": item.form,
            "lemma": "" if item.lemma == item.form else item.lemma,
            "pos": item.pos,
            "item_id": item.item_id,
        }
        for name, spec in schema.features.items():
            values = item.features.get(name, [])
            multi_choice = spec.multi and spec.values is not None
            initial[feature_field_name(name)] = (
                list(values) if multi_choice else schema.multi_separator.join(values)
            )
        return initial

    def feature_fields(self) -> list[forms.BoundField]:
        return [self[feature_field_name(name)] for name in self.schema.features]

    def item_values(self) -> dict[str, Any]:
        """Return the service's keyword arguments: texts and features (name -> text or list)."""
        data = self.cleaned_data
        return {
            "form": data["form"],
            "lemma": data.get("lemma", ""),
            "pos": data.get("pos", ""),
            "item_id": data.get("item_id", ""),
            "features": {name: data.get(feature_field_name(name)) for name in self.schema.features},
        }

    def add_service_errors(self, error: ValidationError) -> None:
        """Show a service's errors ("features.<name>", "form", ...) on the fields they concern."""
        for key, messages in error.message_dict.items():
            name = key.removeprefix("features.")
            field = feature_field_name(name) if key.startswith("features.") else key
            for message in messages:
                self.add_error(field if field in self.fields else None, message)


_VALUE_SPLIT = re.compile(r"[,，]")


def values_from_text(text: str) -> list[str] | None:
    """Return the values typed in the feature form (one per line, or comma-separated); None if blank."""
    parts = text.splitlines() if "\n" in text.strip() else _VALUE_SPLIT.split(text)
    values = [part.strip() for part in parts if part.strip()]
    return values or None


class FeatureForm(forms.Form):
    """One feature's declaration: name, type, allowed values, multi-valued, description."""

    name = forms.CharField(max_length=100)
    type = forms.ChoiceField(
        choices=[(t, f"{t} — {TYPE_HELP[t]}") for t in FEATURE_TYPES],
        initial="category",
    )
    values = forms.CharField(
        label="Allowed values",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="For category and text features: separate values with commas or put one per line. "
        "Leave blank to allow any value.",
    )
    multi = forms.BooleanField(
        label="Items may hold several values", required=False, help_text="Cells then hold values joined by |."
    )
    description = forms.CharField(required=False, max_length=500)

    @staticmethod
    def initial_for(spec: FeatureSpec) -> dict[str, object]:
        return {
            "name": spec.name,
            "type": spec.type,
            "values": ", ".join(spec.values) if spec.values is not None else "",
            "multi": spec.multi,
            "description": spec.description,
        }

    def feature_values(self) -> dict[str, Any]:
        """Return the service's keyword arguments."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "type": data["type"],
            "values": values_from_text(data.get("values", "")),
            "multi": data.get("multi", False),
            "description": data.get("description", ""),
        }

    def add_service_errors(self, error: ValidationError) -> None:
        for key, messages in error.message_dict.items():
            for message in messages:
                self.add_error(key if key in self.fields else None, message)


class SchemaYamlForm(forms.Form):
    """The whole schema as `.schema.yaml` text."""

    text = forms.CharField(
        label="Schema (YAML)",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "class": "code"}),
    )


def filter_values(query: Mapping[str, str], schema: FeatureSchema) -> dict[str, str]:
    """Return feature -> value of the table's feature filters in a query (`f-<feature>=<value>`)."""
    return {
        name: query[feature_field_name(name)]
        for name in schema.features
        if query.get(feature_field_name(name), "").strip()
    }
