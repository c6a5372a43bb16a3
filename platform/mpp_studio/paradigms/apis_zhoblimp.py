"""API: import a ZhoBLiMP project (template JSONs, vocabulary TSV, phrase JSON) into a project.

The upload answers 202 with the import, whose job converts and stores the files in the
background (`services.zhoblimp_import`); `templates/import/zhoblimp/<id>/` shows it until then.
"""

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from generator.importers.zhoblimp_compare import ALPHA, TOP_WORDS, VERDICTS
from mpp_studio.accounts.models import Project
from mpp_studio.core import api_input
from mpp_studio.core.uploads import NamedUploadField
from mpp_studio.jobs.serializers import JobOutputSerializer
from mpp_studio.lexicon.apis_imports import ImportNoteSerializer
from mpp_studio.paradigms.models import ZhoblimpImport
from mpp_studio.paradigms.selectors_imports import zhoblimp_import_get
from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_start


class ImportedTemplateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    uid = serializers.CharField()
    phenomenon = serializers.CharField()


class ImportedVocabularySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    reused = serializers.BooleanField(help_text="Already in the project with the same content.")


VERDICT_HELP = f"One of: {', '.join(VERDICTS)} (docs/importing.md)."


class ZhoblimpComparisonDifferenceSerializer(serializers.Serializer):
    category = serializers.CharField(
        help_text="A length difference, an edit shape, a differing text or a word."
    )
    released = serializers.IntegerField(help_text="How often the release has it.")
    rebuilt = serializers.IntegerField(help_text="How often the rebuilt pairs have it.")


class ZhoblimpComparisonTestSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="length, edit shape, differing words or fillers.")
    p_value = serializers.FloatField(
        allow_null=True,
        help_text="The chi-square test's p-value; null when every category was too rare to test.",
    )
    differs = serializers.BooleanField(help_text=f"Whether the p-value is below {ALPHA}.")
    distance = serializers.FloatField(
        help_text="Total variation distance of the two samples' shares, every category unpooled "
        "(0: the same shares, 1: nothing in common)."
    )
    most_different = ZhoblimpComparisonDifferenceSerializer(
        many=True,
        help_text=f"Only for a profile that differs: the {TOP_WORDS} categories whose shares differ most.",
    )


class ZhoblimpComparisonSeedSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    verdict = serializers.CharField(help_text=VERDICT_HELP)
    made = serializers.IntegerField(help_text="Pairs rebuilt under this seed.")
    asked = serializers.IntegerField(help_text="Pairs asked for: as many as the release has.")
    good_overlap = serializers.FloatField(
        help_text="Share of the rebuilt good sentences the release also has."
    )
    problem = serializers.CharField(help_text="Why generation stopped short or failed; empty if it did not.")
    tests = ZhoblimpComparisonTestSerializer(many=True)


class ZhoblimpComparisonUidSerializer(serializers.Serializer):
    uid = serializers.CharField(help_text="The released UID.")
    verdict = serializers.CharField(help_text=VERDICT_HELP)
    released = serializers.IntegerField(help_text="Pairs the release has for this UID.")
    template = serializers.CharField(help_text="The imported template that rebuilds it; empty if none.")
    seeds = ZhoblimpComparisonSeedSerializer(many=True)
    notes = serializers.ListField(child=serializers.CharField(), help_text="The import report's lines on it.")


class ZhoblimpComparisonSerializer(serializers.Serializer):
    seeds = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seeds each UID was rebuilt with."
    )
    counts = serializers.DictField(child=serializers.IntegerField(), help_text="Verdict -> number of UIDs.")
    summary = serializers.CharField(help_text="The comparison in one sentence.")
    uids = ZhoblimpComparisonUidSerializer(many=True, help_text="Each released UID, in name order.")
    unreleased = serializers.ListField(
        child=serializers.CharField(), help_text="Imported templates the release has no file for."
    )


class ZhoblimpImportOutputSerializer(serializers.ModelSerializer):
    job = JobOutputSerializer(read_only=True, allow_null=True)
    files = serializers.ListField(child=serializers.CharField(), source="file_names")
    vocabulary = serializers.SerializerMethodField(help_text="Once the job is done: the vocabulary stored.")
    phrases = serializers.ListField(child=serializers.CharField())
    templates = ImportedTemplateSerializer(many=True, help_text="Once the job is done: the templates stored.")
    report = ImportNoteSerializer(many=True, help_text="Item by item: what was skipped or changed.")
    comparison = serializers.SerializerMethodField(
        help_text="Once the job is done, when released ZhoBLiMP .jsonl files came with the project: "
        "each released UID rebuilt under two seeds and compared with the release; null without."
    )

    class Meta:
        model = ZhoblimpImport
        fields = (
            "id",
            "vocabulary_name",
            "files",
            "job",
            "vocabulary",
            "phrases",
            "templates",
            "report",
            "comparison",
            "created_at",
        )
        read_only_fields = fields

    @extend_schema_field(ImportedVocabularySerializer(allow_null=True))
    def get_vocabulary(self, row: ZhoblimpImport) -> dict[str, object] | None:
        done = row.job is not None and row.job.status == row.job.Status.DONE
        if not done or row.vocabulary is None:
            return None
        return {"id": row.vocabulary.pk, "name": row.vocabulary.name, "reused": not row.vocabulary_created}

    @extend_schema_field(ZhoblimpComparisonSerializer(allow_null=True))
    def get_comparison(self, row: ZhoblimpImport) -> dict[str, object] | None:
        return row.comparison or None


class ZhoblimpImportApi(APIView):
    """`self.project` is set by ProjectRolePermission (POST needs the editor role)."""

    project: Project
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema_serializer(component_name="ZhoblimpImportInput")
    class InputSerializer(api_input.InputSerializer):
        files = serializers.ListField(
            child=NamedUploadField(),
            allow_empty=False,
            help_text="Template .json files, one vocabulary .tsv, an optional phrase .json and optionally "
            "ZhoBLiMP's released .jsonl files to compare with, or a .zip.",
        )
        vocabulary_name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")

    @extend_schema(
        operation_id="zhoblimp_import",
        description="Keep the files of a ZhoBLiMP project and answer 202 with the import, whose `job` "
        "converts and stores them in the background as a vocabulary, phrases and templates: poll "
        "`templates/import/zhoblimp/<id>/` until the job has finished. Done: what was stored and "
        "the `report` (file, where, level, message, item by item). Failed: an upload that cannot be "
        "used stores nothing; `job.message` says why and the `report` lists every item so far. The "
        "vocabulary name and each file's size are checked at once: 400 naming the field. With released "
        "`.jsonl` files the job also rebuilds each released UID and compares it with them: `comparison`.",
        request={"multipart/form-data": InputSerializer},
        responses={202: ZhoblimpImportOutputSerializer},
    )
    def post(self, request: Request, project_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = zhoblimp_import_start(
            project=self.project,
            files=data.validated_data["files"],
            vocabulary_name=data.validated_data["vocabulary_name"],
            created_by=request.user,
        )
        return Response(ZhoblimpImportOutputSerializer(row).data, status=status.HTTP_202_ACCEPTED)


class ZhoblimpImportDetailApi(APIView):
    """One ZhoBLiMP import: its job, then what was stored and the report. `self.project` is set
    by ProjectRolePermission (GET needs the viewer role)."""

    project: Project

    @extend_schema(
        operation_id="zhoblimp_import_detail",
        description="An import started by `templates/import/zhoblimp/`. Poll it until `job.finished`.",
        responses={200: ZhoblimpImportOutputSerializer},
    )
    def get(self, request: Request, project_id: int, import_id: int) -> Response:
        row = zhoblimp_import_get(project=self.project, import_id=import_id)
        return Response(ZhoblimpImportOutputSerializer(row).data)
