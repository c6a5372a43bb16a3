"""Serializers of the paradigms API: explicit input and output shapes, one per operation."""

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from mpp_studio.core.api_input import InputSerializer
from mpp_studio.paradigms.models import LibraryTemplate, Phrase, Template, TemplateVersion
from mpp_studio.paradigms.services.phrases import NAME_PATTERN, NAME_RULE
from mpp_studio.paradigms.services.text_preview import MAX_PREVIEW_PAIRS

# A template file is a few kilobytes; this bound only stops a runaway paste.
MAX_SOURCE_CHARS = 1_000_000
# One request may name the whole shipped library (234 templates today) with room to grow; the
# import runs as a job, so the bound is on the request's size, not the work. It stays well under
# the 1,000 form fields the server reads (settings.DATA_UPLOAD_MAX_NUMBER_FIELDS), so a form-encoded
# request at the bound is read, not refused.
MAX_IMPORT_TEMPLATES = 500

_PROBLEM_KEYS = ("code", "message", "template", "grammar", "position", "line")


class TemplateProblemSerializer(serializers.Serializer):
    """A problem the engine found: its code, its message and where it is."""

    code = serializers.CharField()
    message = serializers.CharField()
    template = serializers.CharField(allow_blank=True, help_text="The file or phrase it is in.")
    grammar = serializers.CharField(
        allow_blank=True, help_text="good, bad, or 'phrase <Name>, alternative N'."
    )
    position = serializers.CharField(allow_blank=True, help_text="The position's number and id.")
    line = serializers.IntegerField(allow_null=True, help_text="1-based line of the YAML text.")


def problem_dicts(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return stored problem dicts with exactly the keys of TemplateProblemSerializer."""
    out = []
    for problem in raw:
        line = problem.get("line")
        entry: dict[str, Any] = {key: str(problem.get(key) or "") for key in _PROBLEM_KEYS[:-1]}
        entry["line"] = line if isinstance(line, int) else None
        out.append(entry)
    return out


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


# -- Templates and versions ------------------------------------------------------------------------


class TemplateVersionOutputSerializer(serializers.Serializer):
    """One saved version of a template, with the engine's check of it at save time."""

    number = serializers.IntegerField()
    note = serializers.CharField()
    source_text = serializers.CharField()
    valid = serializers.SerializerMethodField()
    problems = serializers.SerializerMethodField()
    capacity_text = serializers.CharField(help_text="How many different pairs it can make, in words.")
    engine_hash = serializers.CharField(help_text="The generator's hash of the parsed template.")
    created_by = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    def get_valid(self, version: TemplateVersion) -> bool:
        return not version.problems

    @extend_schema_field(TemplateProblemSerializer(many=True))
    def get_problems(self, version: TemplateVersion) -> list[dict[str, Any]]:
        return problem_dicts(version.problems)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_created_by(self, version: TemplateVersion) -> str | None:
        return _username(version.created_by)


class TemplateVersionSummarySerializer(serializers.Serializer):
    """A version in a list: its number, note and whether the engine found problems."""

    number = serializers.IntegerField()
    note = serializers.CharField()
    valid = serializers.SerializerMethodField()
    problem_count = serializers.SerializerMethodField()
    capacity_text = serializers.CharField()
    created_by = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    def get_valid(self, version: TemplateVersion) -> bool:
        return not version.problems

    def get_problem_count(self, version: TemplateVersion) -> int:
        return len(version.problems)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_created_by(self, version: TemplateVersion) -> str | None:
        return _username(version.created_by)


class TemplateListOutputSerializer(serializers.Serializer):
    """A template in the list, with a summary of its latest version."""

    id = serializers.IntegerField()
    uid = serializers.CharField()
    phenomenon = serializers.CharField()
    language = serializers.CharField()
    description = serializers.CharField()
    version_count = serializers.SerializerMethodField()
    latest_version = serializers.SerializerMethodField()
    updated_at = serializers.DateTimeField()

    def get_version_count(self, template: Template) -> int:
        return int(getattr(template, "version_count", None) or template.versions.count())

    @extend_schema_field(TemplateVersionSummarySerializer(allow_null=True))
    def get_latest_version(self, template: Template) -> dict[str, Any] | None:
        # A list loads them all at once (selectors.template_latest_versions_attach).
        if hasattr(template, "prefetched_latest_version"):
            version = template.prefetched_latest_version
        else:
            version = template.latest_version()
        return TemplateVersionSummarySerializer(version).data if version is not None else None


class TemplateDetailOutputSerializer(TemplateListOutputSerializer):
    """A template with its latest version in full."""

    @extend_schema_field(TemplateVersionOutputSerializer(allow_null=True))
    def get_latest_version(self, template: Template) -> dict[str, Any] | None:
        version = template.latest_version()
        return TemplateVersionOutputSerializer(version).data if version is not None else None


class TemplateCreateInputSerializer(InputSerializer):
    source_text = serializers.CharField(
        trim_whitespace=False, max_length=MAX_SOURCE_CHARS, help_text="The template's YAML."
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=300, default="")


class TemplateVersionCreateInputSerializer(TemplateCreateInputSerializer):
    pass


class TemplateVersionCreateOutputSerializer(TemplateVersionOutputSerializer):
    """The saved version; `problems` lists what the engine found (the version is stored all the same)."""

    template_id = serializers.IntegerField(source="template.pk")
    uid = serializers.CharField(source="template.uid")


class PreviewInputSerializer(InputSerializer):
    source_text = serializers.CharField(trim_whitespace=False, max_length=MAX_SOURCE_CHARS)
    n = serializers.IntegerField(
        min_value=1, max_value=MAX_PREVIEW_PAIRS, default=10, help_text="How many pairs (at most 50)."
    )
    seed = serializers.IntegerField(min_value=0, max_value=2**63 - 1, default=0)


class PreviewSpanSerializer(serializers.Serializer):
    tokens = serializers.ListField(child=serializers.IntegerField(), help_text="[start, end) word indexes.")
    chars = serializers.ListField(child=serializers.IntegerField(), help_text="[start, end) characters.")
    positions = serializers.ListField(child=serializers.CharField(), help_text="Position ids covered.")


class PreviewRegionSerializer(serializers.Serializer):
    type = serializers.CharField(help_text="substitution, insertion, deletion, move or copy.")
    good = PreviewSpanSerializer()
    bad = PreviewSpanSerializer()
    source = PreviewSpanSerializer(  # type: ignore[assignment]  # a declared field, not Field.source
        required=False, help_text="Moves and copies: where the word comes from."
    )


class PreviewPairSerializer(serializers.Serializer):
    """A generated pair in the engine's JSONL record layout (BLiMP fields plus region and provenance)."""

    sentence_good = serializers.CharField()
    sentence_bad = serializers.CharField()
    UID = serializers.CharField()
    phenomenon = serializers.CharField()
    pairID = serializers.CharField()
    item_id = serializers.CharField()
    language = serializers.CharField()
    words_good = serializers.ListField(child=serializers.CharField())
    words_bad = serializers.ListField(child=serializers.CharField())
    critical_region = PreviewRegionSerializer(many=True)
    provenance = serializers.DictField(help_text="Template and vocabulary versions, seed, fillers.")


class PreviewOutputSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    capacity_text = serializers.CharField()
    problems = TemplateProblemSerializer(many=True)
    message = serializers.CharField(help_text="Why there are fewer pairs than asked for, if there are.")
    pairs = PreviewPairSerializer(many=True)


# -- Phrases -----------------------------------------------------------------------------------


class PhraseUserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    uid = serializers.CharField()


class PhraseOutputSerializer(serializers.Serializer):
    """A phrase: its alternatives as YAML, and the templates whose latest versions use it."""

    id = serializers.IntegerField(source="phrase.pk")
    name = serializers.CharField(source="phrase.name")
    text = serializers.CharField(
        source="phrase.text", help_text="YAML: a list of alternatives, each a list of positions."
    )
    description = serializers.CharField(source="phrase.description")
    alternative_count = serializers.IntegerField(allow_null=True)
    used_by = PhraseUserSerializer(many=True, help_text="Templates whose latest versions use it.")
    created_at = serializers.DateTimeField(source="phrase.created_at")
    updated_at = serializers.DateTimeField(source="phrase.updated_at")


def _phrase_name(**kwargs: Any) -> serializers.CharField:
    """Return the phrase-name field: the services' rule (NAME_PATTERN), which the schema shows."""
    rule = RegexValidator(NAME_PATTERN, message=f"'%(value)s' cannot name a phrase: use {NAME_RULE}.")
    limit = Phrase._meta.get_field("name").max_length
    assert limit is not None  # the model's CharField sets one
    return serializers.CharField(max_length=limit, validators=[rule], **kwargs)


class PhraseInputSerializer(InputSerializer):
    name = _phrase_name()
    text = serializers.CharField(trim_whitespace=False, help_text="YAML: a list of alternatives.")
    description = serializers.CharField(required=False, allow_blank=True, default="")


class PhrasePatchInputSerializer(InputSerializer):
    name = _phrase_name(required=False)
    text = serializers.CharField(required=False, trim_whitespace=False)
    description = serializers.CharField(required=False, allow_blank=True)


class TemplateRecheckSerializer(serializers.Serializer):
    """A template's latest version checked again after a phrase changed."""

    id = serializers.IntegerField(source="template.pk")
    uid = serializers.CharField(source="template.uid")
    version = serializers.IntegerField(source="version_number")
    valid = serializers.BooleanField()
    problems = TemplateProblemSerializer(many=True)
    capacity_text = serializers.CharField()


class PhraseChangeOutputSerializer(PhraseOutputSerializer):
    rechecked = TemplateRecheckSerializer(many=True, help_text="Templates using it, checked again now.")


# -- The library catalogue ----------------------------------------------------------------------


class LibraryTemplateOutputSerializer(serializers.Serializer):
    """The newest version of a shipped library paradigm."""

    id = serializers.IntegerField()
    uid = serializers.CharField()
    phenomenon = serializers.CharField()
    language = serializers.CharField()
    description = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]  # a declared field, not Field.source
    example_good = serializers.CharField()
    example_bad = serializers.CharField()
    file_name = serializers.CharField()
    capacity_text = serializers.CharField()
    valid = serializers.SerializerMethodField()
    problems = serializers.SerializerMethodField()
    vocabulary = serializers.SerializerMethodField()
    source_text = serializers.CharField()

    def get_valid(self, template: LibraryTemplate) -> bool:
        return not template.problems

    @extend_schema_field(TemplateProblemSerializer(many=True))
    def get_problems(self, template: LibraryTemplate) -> list[dict[str, Any]]:
        return problem_dicts(template.problems)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_vocabulary(self, template: LibraryTemplate) -> str | None:
        return template.vocabulary.file_name if template.vocabulary is not None else None


class LibraryImportInputSerializer(InputSerializer):
    project = serializers.IntegerField(
        help_text="The project to import into (you must be its editor or owner)."
    )
    # Ids are 64-bit: a larger one is refused with 400 before it reaches the database (a 500).
    templates = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        min_length=1,
        max_length=MAX_IMPORT_TEMPLATES,
        help_text="Ids of library templates (from GET /api/library/).",
    )


class LibraryImportedPartSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["vocabulary", "phrase"])
    name = serializers.CharField()
    outcome = serializers.ChoiceField(choices=["created", "reused"])


class LibraryImportResultSerializer(serializers.Serializer):
    library_template = serializers.IntegerField(source="source.pk")
    uid = serializers.CharField(source="source.uid")
    imported = serializers.BooleanField()
    message = serializers.CharField(help_text="Why it was skipped (or a note on the import).")
    parts = LibraryImportedPartSerializer(many=True, help_text="Vocabulary and phrases created or reused.")
    template = serializers.SerializerMethodField()
    version = serializers.SerializerMethodField()

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_template(self, result: Any) -> int | None:
        return result.version.template.pk if result.version is not None else None

    @extend_schema_field(TemplateVersionSummarySerializer(allow_null=True))
    def get_version(self, result: Any) -> dict[str, Any] | None:
        return TemplateVersionSummarySerializer(result.version).data if result.version is not None else None


class LibraryImportOutputSerializer(serializers.Serializer):
    project = serializers.IntegerField(source="project.pk")
    imported = serializers.SerializerMethodField()
    skipped = serializers.SerializerMethodField()
    results = LibraryImportResultSerializer(many=True)

    def get_imported(self, report: Any) -> int:
        return len(report.imported)

    def get_skipped(self, report: Any) -> int:
        return len(report.skipped)


# -- Errors (for the schema: every error body has this layout) -----------------------------------


class ParadigmErrorSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="The input it concerns: source_text, text, name, n, ...")
    message = serializers.CharField()
    code = serializers.CharField(required=False, help_text="The engine's problem code (E_...).")
    line = serializers.IntegerField(required=False, allow_null=True)
    grammar = serializers.CharField(required=False)
    position = serializers.CharField(required=False)


class ParadigmErrorsSerializer(serializers.Serializer):
    errors = ParadigmErrorSerializer(  # type: ignore[assignment]  # a declared field, not Serializer.errors
        many=True
    )
