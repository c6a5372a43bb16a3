"""The form that uploads released-dataset files to import; the service reads and stores them."""

from django import forms

from generator.formats.zorro import ORDERS
from mpp_studio.datasets.services.imports import MAX_IMPORT_FILES
from mpp_studio.paradigms.forms_library import MultipleFileField, MultipleFileInput

MAX_IMPORT_BYTES = 256 * 1024 * 1024  # all files of one upload together

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
    files = MultipleFileField(
        label="Files",
        widget=MultipleFileInput(attrs={"accept": ".jsonl,.json,.txt,.zip"}),
        help_text=(
            "BLiMP or ZhoBLiMP <code>.jsonl</code> files, Zorro <code>.txt</code> files named "
            "<code>phenomenon-paradigm.txt</code>, or a <code>.zip</code> of them; several at once if "
            f"you like (up to {MAX_IMPORT_FILES} files, {MAX_IMPORT_BYTES // 1024 // 1024} MiB in all)."
        ),
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

    def clean_files(self) -> list[object]:
        files = self.cleaned_data["files"]
        if len(files) > MAX_IMPORT_FILES:
            raise forms.ValidationError(
                f"You chose {len(files)} files; import at most {MAX_IMPORT_FILES} at once "
                "(or put them in a .zip)."
            )
        size = sum(getattr(f, "size", 0) or 0 for f in files)
        if size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                f"The files are {size / 1024 / 1024:.1f} MiB in all; import at most "
                f"{MAX_IMPORT_BYTES // 1024 // 1024} MiB at once."
            )
        return files  # type: ignore[no-any-return]
