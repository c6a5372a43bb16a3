"""The studies API, under /api/projects/<project_id>/studies/: what the study pages do. The
project's studies (list, create), one study (read, change its settings), opening and closing
it, its analysis rules, the analysis downloads, publishing the summary to the dataset card and
re-validating flagged paradigms. The analysis itself is `views_analysis.StudyAnalysisApi`.

Permissions come from `ProjectRolePermission` (the default): reading and downloading need the
viewer role, every write the editor role; non-members get 404. Bad input is 400 with a message
per field; what the study's state refuses (a frozen setting, closing a study that is not open,
publishing before any answer is analysed) is 409.
"""

from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.users import signed_in_user
from mpp_studio.core.api_errors import QueryFormatNegotiation, errors_response
from mpp_studio.core.schema import ApiErrorsSerializer
from mpp_studio.datasets.models import Dataset
from mpp_studio.studies import serializers as s
from mpp_studio.studies.analysis_downloads import DOWNLOADS, analysis_download
from mpp_studio.studies.analysis_rules import rules_of
from mpp_studio.studies.models import Study
from mpp_studio.studies.preview_views import preview_schedule
from mpp_studio.studies.reconciliation import prolific_reconciliation
from mpp_studio.studies.report_ratings import analysis_report
from mpp_studio.studies.selectors import dataset_choices, list_status, study_get, study_list
from mpp_studio.studies.services import (
    DESIGN_FIELDS,
    list_quota,
    scale_labels_of,
    study_close,
    study_create,
    study_design,
    study_open,
    study_update,
)
from mpp_studio.studies.services_analysis import revalidation_create, rules_save, validation_publish
from study.design import StudyDesign

TAG = "Validation studies"
CONFLICT = OpenApiResponse(ApiErrorsSerializer, description="The study's state refuses it (said in words).")
# What an opened study keeps as it was (the settings form shows them disabled).
FROZEN = ("datasets", *DESIGN_FIELDS, "consent_version")


def _project(view: APIView) -> Project:
    return view.project  # type: ignore[attr-defined]  # set by ProjectRolePermission


def _detail(study: Study) -> dict[str, object]:
    """Return the study as StudyDetailOutputSerializer gives it, with its lists' status (each
    list's `needed` is its quota)."""
    needed = list_quota(study, StudyDesign.from_dict(study.design)) if study.design else 0
    study.list_rows = list_status(study=study, needed_per_list=needed)  # type: ignore[attr-defined]  # for the serializer
    return dict(s.StudyDetailOutputSerializer(study).data)


def _datasets(choices: QuerySet[Dataset], ids: Iterable[int]) -> list[Dataset]:
    """Return the datasets of `ids` among `choices`, in the order given; a ValidationError names
    each id that is not one of them."""
    wanted = list(dict.fromkeys(ids))
    found = {d.pk: d for d in choices.filter(pk__in=wanted)}
    missing = [i for i in wanted if i not in found]
    if missing:
        raise ValidationError(
            {"datasets": [f"This project has no dataset with id {i} that a study can use." for i in missing]}
        )
    return [found[i] for i in wanted]


def _conflict(error: ValidationError, fields: Sequence[str] = ("",)) -> Response:
    """Return 409 with the service's messages, under each of `fields`."""
    return errors_response(
        [{"field": field, "message": message} for field in fields for message in error.messages],
        status.HTTP_409_CONFLICT,
    )


class StudyListApi(GenericAPIView):
    """The project's validation studies, newest first; creating one builds its design (201)."""

    serializer_class = s.StudyOutputSerializer

    def get_queryset(self) -> QuerySet[Study]:
        return study_list(project=_project(self)).prefetch_related("datasets")

    @extend_schema(tags=[TAG], responses=s.StudyOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(s.StudyOutputSerializer(page, many=True).data)

    @extend_schema(
        tags=[TAG],
        request=s.StudyInputSerializer,
        responses={201: s.StudyDetailOutputSerializer},
        description="Creates a draft study of the datasets and builds its design (the items sampled, "
        "dealt over the lists, with catch trials), as the settings form does. Empty instructions and "
        "consent text get the language's defaults. What the design cannot be made from these "
        "datasets' items is a 400 that says why, naming the field where it can.",
    )
    def post(self, request: Request, project_id: int) -> Response:
        project = _project(self)
        data = s.StudyInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        datasets = _datasets(dataset_choices(project=project), values.pop("datasets"))
        study = study_create(project=project, datasets=datasets, created_by=signed_in_user(request), **values)
        return Response(_detail(study), status=status.HTTP_201_CREATED)


class StudyDetailApi(APIView):
    """One study: its settings, its design and its participants per list by status; PATCH
    changes its settings."""

    @extend_schema(tags=[TAG], responses=s.StudyDetailOutputSerializer)
    def get(self, request: Request, project_id: int, study_id: int) -> Response:
        return Response(_detail(study_get(project=_project(self), study_id=study_id)))

    @extend_schema(
        tags=[TAG],
        request=s.StudyInputSerializer,
        responses={200: s.StudyDetailOutputSerializer, 409: CONFLICT},
        description="Changes the settings sent. A draft's design is rebuilt (from the datasets sent, "
        "or its own). Once the study has opened, its datasets, design settings and consent version "
        "are frozen: changing one is a 409 naming it; the other texts may change.",
    )
    def patch(self, request: Request, project_id: int, study_id: int) -> Response:
        project = _project(self)
        study = study_get(project=project, study_id=study_id)
        data = s.StudyInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = {k: v for k, v in data.validated_data.items() if k in request.data}
        ids = values.pop("datasets", None)
        datasets = _datasets(dataset_choices(project=project), ids) if ids is not None else None
        draft = study.is_draft
        try:
            study = study_update(study=study, datasets=datasets, **values)
        except ValidationError as error:
            if draft or hasattr(error, "error_dict"):
                raise
            sent = [f for f in FROZEN if f in values or (f == "datasets" and datasets is not None)]
            return _conflict(error, sent or ("",))
        return Response(_detail(study))


class StudyOpenApi(APIView):
    """Open the study to participants (a draft or a closed study); its design is frozen from
    then on. Opening an open study changes nothing."""

    @extend_schema(tags=[TAG], request=None, responses={200: s.StudyDetailOutputSerializer, 409: CONFLICT})
    def post(self, request: Request, project_id: int, study_id: int) -> Response:
        study = study_get(project=_project(self), study_id=study_id)
        try:
            study_open(study=study)
        except ValidationError as error:
            return _conflict(error)
        return Response(_detail(study))


class StudyCloseApi(APIView):
    """Close an open study to new participants; those working may finish (409 for a study that
    is not open)."""

    @extend_schema(tags=[TAG], request=None, responses={200: s.StudyDetailOutputSerializer, 409: CONFLICT})
    def post(self, request: Request, project_id: int, study_id: int) -> Response:
        study = study_get(project=_project(self), study_id=study_id)
        try:
            study_close(study=study)
        except ValidationError as error:
            return _conflict(error)
        return Response(_detail(study))


class StudyAnalysisRulesApi(APIView):
    """The exclusion and flag rules the study's analysis uses (the defaults until saved); PUT
    replaces them, read as the analysis page's rules form reads them."""

    @extend_schema(tags=[TAG], responses=s.AnalysisRulesSerializer)
    def get(self, request: Request, project_id: int, study_id: int) -> Response:
        study = study_get(project=_project(self), study_id=study_id)
        return Response(rules_of(study).to_dict())

    @extend_schema(tags=[TAG], request=s.AnalysisRulesSerializer, responses=s.AnalysisRulesSerializer)
    def put(self, request: Request, project_id: int, study_id: int) -> Response:
        study = study_get(project=_project(self), study_id=study_id)
        data = s.AnalysisRulesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(rules_save(study=study, data=dict(data.validated_data)).to_dict())


class StudyAnalysisExportApi(APIView):
    """Download the analysis under the saved rules, as the analysis page does: a CSV of the
    responses (tidy long format), participants, items, paradigms, phenomena or words, or the
    whole analysis as JSON. Participants are keyed by a hash, never a Prolific ID."""

    renderer_classes = (JSONRenderer,)
    content_negotiation_class = QueryFormatNegotiation

    @extend_schema(
        tags=[TAG],
        parameters=[OpenApiParameter("what", str, OpenApiParameter.PATH, enum=list(DOWNLOADS))],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description="A CSV table."),
            (200, "application/json"): OpenApiResponse(OpenApiTypes.BINARY, description="The analysis."),
            409: CONFLICT,
        },
    )
    def get(self, request: Request, project_id: int, study_id: int, what: str) -> HttpResponseBase:
        study = study_get(project=_project(self), study_id=study_id)
        if what not in DOWNLOADS:
            raise Http404("No such export.")
        try:
            report = analysis_report(study)
        except ValidationError as error:
            return _conflict(error)
        download = analysis_download(study, report, what)
        if download is None:
            raise Http404("A rating study has no such export.")
        return download


class StudyAnalysisPublishApi(APIView):
    """Write the validation summary (per paradigm, under the saved rules) into the card of each
    of the study's datasets that has an analysed paradigm; answer those datasets. 409 while no
    answer is analysed."""

    @extend_schema(
        tags=[TAG], request=None, responses={200: s.PublishedDatasetSerializer(many=True), 409: CONFLICT}
    )
    def post(self, request: Request, project_id: int, study_id: int) -> Response:
        study = study_get(project=_project(self), study_id=study_id)
        try:
            written = validation_publish(study=study)
        except ValidationError as error:
            return _conflict(error)
        return Response(s.PublishedDatasetSerializer(written, many=True).data)


class StudyRevalidateApi(APIView):
    """Create a draft study with this study's settings whose items come only from the chosen
    (flagged) paradigms of the chosen datasets: validate only what changed (201)."""

    @extend_schema(
        tags=[TAG],
        request=s.RevalidationInputSerializer,
        responses={201: s.RevalidationOutputSerializer},
        description="The new study records the study it follows up and its paradigms "
        "(`revalidation_of`, `paradigm_filter`); `missing_paradigms` names those the datasets have "
        "no items of. None at all is a 400 on `datasets`.",
    )
    def post(self, request: Request, project_id: int, study_id: int) -> Response:
        project = _project(self)
        study = study_get(project=project, study_id=study_id)
        data = s.RevalidationInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        ids = values.get("datasets")
        datasets = _datasets(Dataset.objects.filter(project=project), ids) if ids is not None else None
        new = revalidation_create(
            study=study, paradigms=values["paradigms"], datasets=datasets, created_by=signed_in_user(request)
        )
        missing = list(getattr(new, "missing_paradigms", []))
        return Response({**_detail(new), "missing_paradigms": missing}, status=status.HTTP_201_CREATED)


class StudyPreviewApi(APIView):
    """The trials of one list as a participant's page gets them (public views: no gold, role or
    paradigm), each with its number and kind, in a preview participant's order. Nothing is
    stored: no place is taken, nothing enters the analysis. A draft can be previewed."""

    @extend_schema(
        tags=[TAG],
        parameters=[s.StudyPreviewQuerySerializer],
        responses={200: s.StudyPreviewOutputSerializer, 409: CONFLICT},
    )
    def get(self, request: Request, project_id: int, study_id: int) -> Response:
        study = study_get(project=_project(self), study_id=study_id)
        query = s.StudyPreviewQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        try:
            design = study_design(study)
        except ValidationError as error:
            return _conflict(error)
        number = query.validated_data["list"]
        if number > len(design.lists):
            raise ValidationError({"list": f"The study has lists 1 to {len(design.lists)}."})
        trials = preview_schedule(design, number).trials
        return Response(
            {
                "list": number,
                "lists": len(design.lists),
                "scale_labels": scale_labels_of(study) if study.task == Study.Task.RATING else [],
                "trials": [{"number": t.trial_index + 1, "kind": t.kind, **t.public_view()} for t in trials],
            }
        )


class StudyProlificApi(APIView):
    """Paying on Prolific: the pasted Prolific IDs of the study's submissions, each hashed and
    matched to its participation's status and the analysis' verdict under the saved rules. The
    IDs are not stored; any member may ask (it changes nothing)."""

    write_role = Role.VIEWER

    @extend_schema(
        tags=[TAG], request=s.ProlificIdsInputSerializer, responses={200: s.ProlificOutputSerializer}
    )
    def post(self, request: Request, project_id: int, study_id: int) -> Response:
        study = study_get(project=_project(self), study_id=study_id)
        data = s.ProlificIdsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        rows = prolific_reconciliation(
            study, values["prolific_ids"], with_submissions=values["with_submissions"]
        )
        return Response(
            {
                "ids": [
                    {
                        "prolific_id": r.prolific_id,
                        "status": r.status,
                        "completed_at": r.completed_at,
                        "excluded": r.excluded,
                        "reasons": list(r.reasons),
                        "to_approve": r.to_approve,
                    }
                    for r in rows
                ],
                "to_approve": [r.prolific_id for r in rows if r.to_approve],
            }
        )
