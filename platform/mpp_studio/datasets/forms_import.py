"""The form that uploads released-dataset files to import; the service reads and stores them."""

from typing import Any

from django import forms

from formats.zorro import ORDERS
from mpp_studio.core.uploads import size_text
from mpp_studio.datasets.services.imports import MAX_IMPORT_FILES, import_size_problem, max_import_bytes
from mpp_studio.paradigms.forms.library import MultipleFileField, MultipleFileInput

FORMAT_CHOICES = [
    ("auto", "Detect from each file (name and first line)"),
    ("blimp", "BLiMP JSONL (also the Hugging Face copy with pair_id)"),
    ("zhoblimp", "ZhoBLiMP JSONL"),
    ("zorro", "Zorro text files (one sentence a line)"),
]
ORDER_LABELS = {
    "bad-first": "Ungrammatical line first (phueb/Zorro)",
    "good-first": "Grammatical line first (phueb/UnMasked)",
}


class DatasetImportForm(forms.Form):
    name = forms.CharField(max_length=200, label="Name")
    description = forms.CharField(
        required=False, label="Description", widget=forms.Textarea(attrs={"rows": 2})
    )
    files = MultipleFileField(  # type: ignore[assignment]  # a declared field, not BaseForm.files
        label="Files",
        widget=MultipleFileInput(attrs={"accept": ".jsonl,.json,.txt,.zip"}),
        error_messages={"required": "Choose at least one file to import."},
    )
    source_format = forms.ChoiceField(label="Format", choices=FORMAT_CHOICES, initial="auto")
    zorro_order = forms.ChoiceField(
        label="Zorro line order",
        choices=[(order, ORDER_LABELS[order]) for order in ORDERS],
        initial="bad-first",
        widget=forms.RadioSelect,
        help_text="Zorro's own files put the ungrammatical sentence first; the copy in UnMasked "
        "(used by BabyLM) puts the grammatical one first. Only Zorro files use this.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["files"].help_text = (
            "BLiMP or ZhoBLiMP <code>.jsonl</code> files, Zorro <code>.txt</code> files named "
            "<code>phenomenon-paradigm.txt</code>, or a <code>.zip</code> of them; several at once if "
            f"you like (up to {MAX_IMPORT_FILES} files, {size_text(max_import_bytes())} in all)."
        )

    def clean_files(self) -> list[object]:
        files = self.cleaned_data["files"]
        if len(files) > MAX_IMPORT_FILES:
            raise forms.ValidationError(
                f"You chose {len(files)} files; import at most {MAX_IMPORT_FILES} at once "
                "(or put them in a .zip)."
            )
        problem = import_size_problem([(f.name, f.size or 0) for f in files])
        if problem is not None:
            raise forms.ValidationError(problem)
        return files
