"""The datasets API, under /api/projects/<project_id>/: datasets, their pairs and exports, and jobs.

Permissions come from `ProjectRolePermission` (the default): reading needs the viewer role,
creating, importing, cancelling and deleting the editor role; non-members get 404. Imported
datasets are read-only: they have no job to cancel and are never regenerated.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import signed_in_user
from mpp_studio.core.api_errors import QueryFormatNegotiation, errors_response
from mpp_studio.datasets.downloads import EXPORT_LABELS, export_response, exportable
from mpp_studio.datasets.models import Dataset, Pair, PairReview
from mpp_studio.datasets.selectors import (
    dataset_get,
    dataset_list,
    dataset_paradigms,
    pair_get,
    pair_list,
    pair_pages,
)
from mpp_studio.datasets.selectors_curation import SEARCH_LIMIT, pairs_picked, reviews_of
from mpp_studio.datasets.serializers import (
    DatasetCreateInputSerializer,
    DatasetDetailOutputSerializer,
    DatasetImportInputSerializer,
    DatasetOutputSerializer,
    JobOutputSerializer,
    PairOutputSerializer,
    PairReviewOutputSerializer,
    PairReviewSerializer,
)
from mpp_studio.datasets.services import (
    UploadedFile,
    dataset_create,
    dataset_delete,
    dataset_import_start,
)
from mpp_studio.datasets.services.curation import pair_review_clear, pair_review_set
from mpp_studio.datasets.services.quality import paradigm_quality
from mpp_studio.jobs.selectors import job_get
from mpp_studio.jobs.services import job_cancel
from mpp_studio.paradigms.models import Template

TAG = "Datasets"


def _project(view: APIView) -> Project:
    return view.project  # type: ignore[attr-defined]  # set by ProjectRolePermission


def _with_counts(project: Project, dataset: Dataset) -> Dataset:
    return dataset_list(project=project).get(pk=dataset.pk)


class DatasetListApi(GenericAPIView):
    """The project's datasets, newest first; creating one queues its generation (202)."""

    serializer_class = DatasetOutputSerializer

    def get_queryset(self) -> QuerySet[Dataset]:
        return dataset_list(project=_project(self))

    @extend_schema(tags=[TAG], responses=DatasetOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(DatasetOutputSerializer(page, many=True).data)

    @extend_schema(
        tags=[TAG],
        request=DatasetCreateInputSerializer,
        responses={202: DatasetDetailOutputSerializer},
        description="Records each template's newest version, the phrases it uses and a snapshot of "
        "its vocabulary, then queues the generation. Follow `job` (GET jobs/<id>/) for progress.",
    )
    def post(self, request: Request, project_id: int) -> Response:
        project = _project(self)
        data = DatasetCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        uids = list(dict.fromkeys(values.pop("templates")))
        templates = {t.uid: t for t in Template.objects.filter(project=project, uid__in=uids)}
        missing = [uid for uid in uids if uid not in templates]
        if missing:
            raise ValidationError(
                {"templates": [f"This project has no template with uid '{uid}'." for uid in missing]}
            )
        dataset = dataset_create(
            project=project, templates=[templates[uid] for uid in uids], created_by=request.user, **values
        )
        return Response(_detail(project, dataset), status=status.HTTP_202_ACCEPTED)


class DatasetImportApi(APIView):
    """Import released-dataset files (BLiMP, ZhoBLiMP, Zorro) as a new read-only dataset: the
    files are kept and read by a background job (202 with the dataset and its job)."""

    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(
        tags=[TAG],
        request={"multipart/form-data": DatasetImportInputSerializer},
        responses={202: DatasetDetailOutputSerializer, 400: OpenApiResponse(description="Nothing imported.")},
        description="Keeps the files and answers 202 with the new dataset, whose `job` reads them in "
        "the background (poll the dataset, or the job, until it is `done` or `failed`). The job "
        "reads each file (or each data file of a zip) as `source_format` (`auto`: told from its "
        "name and first line); Zorro files pair their lines in `zorro_order`. A file with some bad "
        "lines imports the others: `import_report` lists every issue with its file, line, field "
        "and severity (error: skipped; warning: kept with a note). When no file gives a usable "
        "pair, or more than 500,000, the job fails with the reason, no pair is kept and the "
        "report stays. Fields, the number of files and their size (zipped or not) are checked "
        "at once: 400 naming the field.",
    )
    def post(self, request: Request, project_id: int) -> Response:
        project = _project(self)
        data = DatasetImportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        dataset = dataset_import_start(
            project=project,
            name=values["name"],
            description=values["description"],
            files=[UploadedFile(f.name, f) for f in values["files"]],
            source_format=values["source_format"],
            zorro_order=values["zorro_order"],
            created_by=request.user,
        )
        return Response(_detail(project, dataset), status=status.HTTP_202_ACCEPTED)


def _detail(project: Project, dataset: Dataset) -> object:
    dataset = _with_counts(project, dataset)
    dataset.paradigm_rows = list(dataset_paradigms(dataset=dataset))  # type: ignore[attr-defined]  # for the serializer
    return DatasetDetailOutputSerializer(dataset).data


class DatasetDetailApi(APIView):
    """One dataset with its paradigms (versions, snapshots, counts, problems) and job status."""

    @extend_schema(tags=[TAG], responses=DatasetDetailOutputSerializer)
    def get(self, request: Request, project_id: int, dataset_id: int) -> Response:
        project = _project(self)
        return Response(_detail(project, dataset_get(project=project, dataset_id=dataset_id)))

    @extend_schema(tags=[TAG], responses={204: None})
    def delete(self, request: Request, project_id: int, dataset_id: int) -> Response:
        dataset_delete(dataset=dataset_get(project=_project(self), dataset_id=dataset_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DatasetPairListApi(GenericAPIView):
    """The dataset's pairs, paradigm by paradigm in pair order; `?uid=` keeps one paradigm, `?q=`
    the pairs either of whose sentences holds a text, `?decision=` those flagged or excluded."""

    serializer_class = PairOutputSerializer

    def get_queryset(self) -> QuerySet[Pair]:
        dataset = dataset_get(project=_project(self), dataset_id=int(self.kwargs["dataset_id"]))
        return pair_list(dataset=dataset, uid=self.request.query_params.get("uid", ""))

    @extend_schema(
        tags=[TAG],
        parameters=[
            OpenApiParameter("uid", str, description="Only this paradigm's pairs."),
            OpenApiParameter("q", str, description="Only pairs either of whose sentences holds this text."),
            OpenApiParameter(
                "decision", str, enum=["flagged", "excluded"], description="Only pairs with this decision."
            ),
        ],
        responses=PairOutputSerializer(many=True),
    )
    def get(self, request: Request, project_id: int, dataset_id: int) -> Response:
        dataset = dataset_get(project=_project(self), dataset_id=dataset_id)
        uid = request.query_params.get("uid", "")
        text = request.query_params.get("q", "").strip()[:SEARCH_LIMIT]
        decision = request.query_params.get("decision", "")
        if decision and decision not in PairReview.Decision.values:
            problem = [{"field": "decision", "message": "Use flagged or excluded."}]
            return errors_response(problem, status.HTTP_400_BAD_REQUEST)
        if text or decision:
            pairs: Any = pairs_picked(dataset=dataset, uid=uid, text=text, decision=decision)
        else:
            pairs = pair_pages(dataset=dataset, paradigms=list(dataset_paradigms(dataset=dataset)), uid=uid)
        page = self.paginate_queryset(pairs)
        context = {"reviews": reviews_of(page or [])}
        return self.get_paginated_response(PairOutputSerializer(page, many=True, context=context).data)


class PairReviewApi(APIView):
    """A person's decision on one pair: flag it, or exclude it from every export, with the reason."""

    @extend_schema(
        tags=[TAG],
        request=PairReviewSerializer,
        responses={
            200: PairReviewOutputSerializer,
            400: OpenApiResponse(description="The field named is not valid."),
        },
        description="Flag (kept, to look at again) or exclude (left out of every export and listed by "
        "the dataset card) a pair, with the reason; replaces an earlier decision. Editors.",
    )
    def put(self, request: Request, project_id: int, dataset_id: int, pair_id: int) -> Response:
        dataset = dataset_get(project=_project(self), dataset_id=dataset_id)
        pair = pair_get(dataset=dataset, pair_id=pair_id)
        data = PairReviewSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        review = pair_review_set(
            pair=pair,
            decision=data.validated_data["decision"],
            reason=data.validated_data["reason"],
            user=signed_in_user(request),
        )
        return Response(PairReviewOutputSerializer(review).data)

    @extend_schema(
        tags=[TAG],
        responses={204: None},
        description="Take back the decision on a pair: it is kept and exported again. Editors.",
    )
    def delete(self, request: Request, project_id: int, dataset_id: int, pair_id: int) -> Response:
        dataset = dataset_get(project=_project(self), dataset_id=dataset_id)
        pair_review_clear(pair=pair_get(dataset=dataset, pair_id=pair_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ParadigmQualityApi(APIView):
    """The quality report of one paradigm of the dataset, computed from its stored pairs."""

    @extend_schema(
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "tokenizer", str, description="A tokenizer named in MPP_TOKENIZERS (none: no OOV part)."
            ),
            OpenApiParameter("frequency", str, description="wordfreq (default), spoken or written."),
        ],
        responses={200: OpenApiTypes.OBJECT},
        description="Length and token-count differences, critical-word frequency asymmetry, repeated "
        "words, duplicates and OOV rates of the paradigm's first pairs (at most 5,000); `problems` "
        "lists what could not be computed (an unknown tokenizer, an unreadable record).",
    )
    def get(self, request: Request, project_id: int, dataset_id: int, uid: str) -> Response:
        dataset = dataset_get(project=_project(self), dataset_id=dataset_id)
        paradigm = dataset_paradigms(dataset=dataset).filter(uid=uid).first()
        if paradigm is None:
            missing = [{"field": "uid", "message": f"The dataset has no paradigm '{uid}'."}]
            return errors_response(missing, status.HTTP_404_NOT_FOUND)
        quality = paradigm_quality(
            paradigm=paradigm,
            tokenizer_name=request.query_params.get("tokenizer", ""),
            frequency_source=request.query_params.get("frequency", "wordfreq"),
        )
        return Response(
            {
                "uid": paradigm.uid,
                "pairs_read": quality.pairs_read,
                "pairs_stored": quality.pairs_stored,
                "tokenizer": quality.tokenizer,
                "frequency_source": quality.frequency_source,
                "problems": list(quality.problems),
                "report": quality.report.to_dict() if quality.report else None,
            }
        )


class DatasetExportApi(APIView):
    """Download the dataset, streamed: JSONL (engine records), CSV, or a zipped Hugging Face folder."""

    renderer_classes = (JSONRenderer,)
    content_negotiation_class = QueryFormatNegotiation

    @extend_schema(
        tags=[TAG],
        parameters=[
            OpenApiParameter(
                "format",
                str,
                enum=list(EXPORT_LABELS),
                default="jsonl",
                description="jsonl: one engine record per line; csv: one row per pair; hf: a zip of "
                "a Hugging Face `datasets` folder (Parquet per paradigm, README.md dataset card, "
                "dataset_info.json); zhoblimp: ZhoBLiMP's JSONL layout (UID, phenomenon, "
                "sentence_good, sentence_bad, pairID as a number); blimp: BLiMP's JSONL layout "
                "(its ten fields in its order, pairID as text, an imported BLiMP pair's own fields).",
            )
        ],
        responses={
            (200, "application/jsonl"): OpenApiResponse(OpenApiTypes.BINARY, description="The export file."),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description="The export file."),
            (200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY, description="The export file."),
            409: OpenApiResponse(description="The dataset is still being generated."),
        },
    )
    def get(self, request: Request, project_id: int, dataset_id: int) -> HttpResponseBase:
        dataset = dataset_get(project=_project(self), dataset_id=dataset_id)
        fmt = request.query_params.get("format", "jsonl")
        if fmt not in EXPORT_LABELS:
            return errors_response(
                [
                    {
                        "field": "format",
                        "message": f"Unknown export format '{fmt}': use one of {', '.join(EXPORT_LABELS)}.",
                    }
                ],
                status.HTTP_400_BAD_REQUEST,
            )
        if not exportable(dataset):
            return errors_response(
                [
                    {
                        "field": "",
                        "message": "The dataset is still being generated; export it once its job has ended.",
                    }
                ],
                status.HTTP_409_CONFLICT,
            )
        return export_response(dataset, fmt)


class JobDetailApi(APIView):
    """A job's status, progress and message (the reason, when it failed)."""

    @extend_schema(tags=[TAG], responses=JobOutputSerializer)
    def get(self, request: Request, project_id: int, job_id: int) -> Response:
        return Response(JobOutputSerializer(job_get(project=_project(self), job_id=job_id)).data)


class JobCancelApi(APIView):
    """Cancel a queued or running job; its tasks stop at their next step and stored work stays."""

    @extend_schema(tags=[TAG], request=None, responses=JobOutputSerializer)
    def post(self, request: Request, project_id: int, job_id: int) -> Response:
        job = job_get(project=_project(self), job_id=job_id)
        job_cancel(job_id=job.pk, user=request.user)
        job.refresh_from_db()
        return Response(JobOutputSerializer(job).data)
