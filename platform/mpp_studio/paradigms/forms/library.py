"""Forms of the library pages: choosing paradigms and a project to import into, and uploading files."""

from typing import Any, cast

from django import forms

from mpp_studio.core.uploads import NamedFileField, mib_text
from mpp_studio.paradigms.services.template_upload import upload_size_limit

MAX_UPLOAD_FILES = 50


class LibraryImportForm(forms.Form):
    """Library template ids and the project to import them into (the view checks the role)."""

    templates = forms.TypedMultipleChoiceField(
        coerce=int,
        error_messages={"required": "Choose at least one paradigm to import."},
    )
    project = forms.IntegerField(
        error_messages={
            "required": "Choose the project to import into.",
            "invalid": "Choose the project to import into.",
        }
    )

    def __init__(self, *args: Any, template_ids: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["templates"]).choices = [(pk, str(pk)) for pk in template_ids]
        self.fields["templates"].error_messages["invalid_choice"] = (
            "The library has no paradigm with the id %(value)s (it may have been replaced by a newer "
            "version)."
        )


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(NamedFileField):
    """A file field that takes several files (Django's documented recipe); an empty one is named."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".yaml,.yml,.zip,.csv,.tsv"}))
        super().__init__(*args, **kwargs)

    def clean(self, data: object, initial: object = None) -> list[object]:
        single = super().clean
        if isinstance(data, list | tuple):
            if not data and self.required:
                raise forms.ValidationError(self.error_messages["required"], code="required")
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class TemplateUploadForm(forms.Form):
    files = MultipleFileField(  # type: ignore[assignment]  # a declared field, not BaseForm.files
        label="Files",
        error_messages={"required": "Choose at least one file to upload."},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["files"].help_text = (
            f"Template files (.yaml, up to {mib_text(upload_size_limit('a.yaml'))} each), or a .zip "
            f"(up to {mib_text(upload_size_limit('a.zip'))}) holding templates, vocabularies (.csv or "
            f".tsv, up to {mib_text(upload_size_limit('a.csv'))}, with an optional .schema.yaml) and "
            "phrase files. Choose several at once if you like."
        )

    def clean_files(self) -> list[object]:
        files = self.cleaned_data["files"]
        if len(files) > MAX_UPLOAD_FILES:
            raise forms.ValidationError(
                f"You chose {len(files)} files; upload at most {MAX_UPLOAD_FILES} at once "
                "(or put them in a .zip)."
            )
        return list(files)
