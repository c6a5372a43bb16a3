"""The form of the ZhoBLiMP project import page."""

from django import forms

from mpp_studio.paradigms.forms.library import MAX_UPLOAD_FILES, MultipleFileField, MultipleFileInput
from mpp_studio.paradigms.services.zhoblimp_import import DEFAULT_VOCABULARY_NAME


class ZhoblimpImportForm(forms.Form):
    files = MultipleFileField(  # type: ignore[assignment]  # a declared field, not BaseForm.files
        label="ZhoBLiMP files",
        widget=MultipleFileInput(attrs={"accept": ".json,.tsv,.jsonl,.zip"}),
        help_text="The template .json files, the vocabulary .tsv and the phrase .json, or a .zip "
        "holding them. Add ZhoBLiMP's released .jsonl files (best in the .zip) to compare the "
        "imported templates with the released data.",
        error_messages={"required": "Choose the files of a ZhoBLiMP project (or a .zip of them)."},
    )
    vocabulary_name = forms.CharField(
        label="Vocabulary name",
        max_length=100,
        required=False,
        help_text=f"The imported vocabulary's name in this project (default {DEFAULT_VOCABULARY_NAME}).",
    )

    def clean_files(self) -> list[object]:
        files = self.cleaned_data["files"]
        if len(files) > MAX_UPLOAD_FILES:
            raise forms.ValidationError(
                f"You chose {len(files)} files; upload at most {MAX_UPLOAD_FILES} at once "
                "(or put them in a .zip)."
            )
        return list(files)
