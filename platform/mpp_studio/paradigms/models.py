"""Stored grammar templates. A row is one version of a template file and is never changed."""

from django.conf import settings
from django.db import models

from mpp_studio.core.models import BaseModel
from mpp_studio.lexicon.models import LibraryVocabulary


class LibraryTemplate(BaseModel):
    """One version of a shipped library template file, linked to the vocabulary version it uses."""

    uid = models.CharField(max_length=200, db_index=True)
    phenomenon = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=35, blank=True, help_text="BCP 47 code, e.g. en, zh.")
    description = models.TextField(blank=True)
    source = models.TextField(
        blank=True, help_text="Where the paradigm comes from (the template's `source:`)."
    )
    example_good = models.TextField(blank=True)
    example_bad = models.TextField(blank=True)
    source_text = models.TextField(help_text="The template YAML file as uploaded.")
    phrase_texts = models.JSONField(
        default=dict,
        blank=True,
        help_text="The phrase files the template names: path as written -> file text.",
    )
    file_name = models.CharField(max_length=255)
    content_hash = models.CharField(
        max_length=64, help_text="SHA-256 of the YAML text, its phrase files and its vocabulary version."
    )
    engine_hash = models.CharField(
        max_length=64,
        blank=True,
        help_text="The generator's hash of the parsed template (template_version in pair provenance).",
    )
    # The validation outcome of this version against its vocabulary version: problem dicts as
    # generator.errors.Problem.to_dict() makes them (empty when valid), and the capacity in words.
    problems = models.JSONField(default=list, blank=True)
    capacity_text = models.CharField(max_length=200, blank=True)
    vocabulary = models.ForeignKey(
        LibraryVocabulary,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="library_templates",
    )

    class Meta:
        ordering = ("language", "phenomenon", "uid", "-created_at")
        constraints = [
            models.UniqueConstraint(
                fields=("file_name", "content_hash"), name="paradigms_librarytemplate_unique_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.uid} ({self.content_hash[:8]})"

    @property
    def has_problems(self) -> bool:
        return bool(self.problems)


class Phrase(BaseModel):
    """A project's named, reusable phrase: its alternatives as YAML (a list of position lists)."""

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="phrases")
    name = models.CharField(max_length=100)
    text = models.TextField(help_text="YAML: a list of alternatives, each a list of positions.")
    description = models.TextField(blank=True)

    class Meta:
        ordering = ("name",)
        constraints = [
            models.UniqueConstraint(fields=("project", "name"), name="paradigms_phrase_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Template(BaseModel):
    """A project's paradigm. Its content lives in versions: every save adds one, none is changed."""

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="templates")
    uid = models.CharField(max_length=200)
    # Copied from the newest version so lists can filter without parsing YAML.
    phenomenon = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=35, blank=True)
    description = models.TextField(blank=True)

    class Meta:
        ordering = ("language", "phenomenon", "uid")
        constraints = [
            models.UniqueConstraint(fields=("project", "uid"), name="paradigms_template_unique_uid"),
        ]

    def __str__(self) -> str:
        return self.uid

    def latest_version(self) -> "TemplateVersion | None":
        return self.versions.order_by("-number").first()


class TemplateVersion(BaseModel):
    """One saved state of a template: its YAML and its validation outcome (problems, capacity),
    counted when it was saved and again, for the latest version, after a vocabulary it names
    changes (`services.recount`)."""

    template = models.ForeignKey(Template, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    source_text = models.TextField()
    engine_hash = models.CharField(max_length=64, blank=True)
    problems = models.JSONField(default=list, blank=True)  # generator Problem.to_dict() list
    capacity_text = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.CharField(max_length=300, blank=True, help_text="What changed.")
    # Set when a vocabulary this version names changed after `problems` and `capacity_text` were
    # counted; the recount job counts them again and clears it (pages say a recount is due).
    recount_requested_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("template", "-number")
        constraints = [
            models.UniqueConstraint(fields=("template", "number"), name="paradigms_version_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.template.uid} v{self.number}"


class TemplateDraft(BaseModel):
    """What one person has typed in the editor of a template (or of a new one) and not yet saved
    as a version: the editor's form fields, stored as they change and offered back on return.
    A save of a version ends the draft."""

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="+")
    template = models.ForeignKey(
        Template, on_delete=models.CASCADE, null=True, blank=True, related_name="drafts"
    )  # None: the draft of a template not yet saved
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    fields = models.JSONField(default=dict)  # form field name -> value, as the browser posted them
    # The template's latest version number when the draft was written (0: none).
    base_version = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=("user", "template"),
                condition=models.Q(template__isnull=False),
                name="paradigms_draft_one_per_template",
            ),
            models.UniqueConstraint(
                fields=("user", "project"),
                condition=models.Q(template__isnull=True),
                name="paradigms_draft_one_new_per_project",
            ),
        ]

    def __str__(self) -> str:
        return f"draft of {self.template.uid if self.template else 'a new template'} by {self.user_id}"


class ZhoblimpImport(BaseModel):
    """A ZhoBLiMP project upload that a background job converts and stores (`paradigms.import_zhoblimp`).

    It keeps the vocabulary name asked for, the names of the files uploaded, the files themselves
    while the job runs (core.stored_uploads records, removed when the job has finished with them)
    and the outcome: the vocabulary (made by this import, or found with the same content), the
    phrases, the templates stored ({id, uid, phenomenon} each), the report, item by item, and,
    when released data was uploaded with the project, the comparison of the rebuilt UIDs with it.
    """

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="zhoblimp_imports")
    job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="zhoblimp_import"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    vocabulary_name = models.CharField(max_length=100)
    file_names = models.JSONField(default=list, blank=True)
    uploads = models.JSONField(default=list, blank=True)
    vocabulary = models.ForeignKey(
        "lexicon.Vocabulary", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Whether this import made the vocabulary (set with it, when the job begins writing it): one
    # that does not finish removes it again; a vocabulary found with the same content stays.
    vocabulary_created = models.BooleanField(default=False)
    phrases = models.JSONField(default=list, blank=True)
    templates = models.JSONField(default=list, blank=True)
    # vocab.import_report.ImportNote.to_dict() of each note (file, where, level, message).
    report = models.JSONField(default=list, blank=True)
    # generator.importers.zhoblimp_compare.ComparisonReport.to_dict() when released files were
    # uploaded, stored with the outcome; {} when there is no comparison.
    comparison = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"ZhoBLiMP import #{self.pk}"


class LibraryImport(BaseModel):
    """Library paradigms a background job imports into a project (`paradigms.import_library`): the
    library template ids chosen, in order, and one result per template imported so far ({source,
    uid, file_name, imported, message, parts, version}), each stored with that template's import."""

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="library_imports")
    job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="library_import"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    library_templates = models.JSONField(default=list, blank=True)
    results = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"library import #{self.pk}"
