"""The model-evaluation API, under /api/projects/<project_id>/: language models (one, or a series
of checkpoints), scoring runs (create = queue, cancel), and results computed from the stored
scores (leaderboard, paradigm table, report, comparison, learning curve, items, exports).

Permissions come from `ProjectRolePermission` (the default): reading needs the viewer role,
registering models and creating, cancelling or deleting runs the editor role; non-members get
404. Bad parameters are 400 with a message per field, never a server error.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.core.api_errors import QueryFormatNegotiation, errors_response
from mpp_studio.datasets.models import Dataset
from mpp_studio.datasets.selectors import dataset_get, is_triplet_dataset
from mpp_studio.evaluation import results
from mpp_studio.evaluation import serializers as s
from mpp_studio.evaluation.exports import TRIPLET_EXPORTS, curve_response, export_response
from mpp_studio.evaluation.models import LanguageModel, ScoreConfig, ScoringRun
from mpp_studio.evaluation.selectors import (
    config_get,
    dataset_configs,
    language_model_get,
    language_model_list,
    run_chunk_counts,
    run_get,
    run_list,
    token_frequency_table_get,
    token_frequency_tables,
)
from mpp_studio.evaluation.services import (
    language_model_create,
    language_model_delete,
    language_model_series_register,
    language_model_update,
    run_cancel,
    run_create,
    run_delete,
)
from mpp_studio.evaluation.services.token_frequencies import (
    token_frequencies_create,
    token_frequencies_delete,
)
from mpp_studio.evaluation.triplet_results import check_triplet_dataset, triplet_report

TAG = "Evaluation"


def _project(view: APIView) -> Project:
    return view.project  # type: ignore[attr-defined]  # set by ProjectRolePermission


def _query(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """Return the validated query parameters (400 with a message per field otherwise)."""
    data = serializer_class(data=request.query_params)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def _results_error(exc: results.ResultsError, field: str = "") -> Response:
    return errors_response([{"field": field, "message": str(exc)}], status.HTTP_400_BAD_REQUEST)


def _configs(project: Project, ids: list[int], field: str) -> list[ScoreConfig]:
    found = {
        c.pk: c
        for c in ScoreConfig.objects.select_related("language_model").filter(
            language_model__project=project, pk__in=ids
        )
    }
    missing = [i for i in ids if i not in found]
    if missing:
        raise ValidationError(
            {field: [f"This project has no scorer configuration with id {i}." for i in missing]}
        )
    return [found[i] for i in ids]


# -- Language models --------------------------------------------------------------------------


class LanguageModelListApi(GenericAPIView):
    """The project's models by series, step and name; registering one answers 201."""

    serializer_class = s.LanguageModelOutputSerializer

    def get_queryset(self) -> QuerySet[LanguageModel]:
        series = self.request.query_params.get("series")
        return language_model_list(project=_project(self), series=series)

    @extend_schema(tags=[TAG], responses=s.LanguageModelOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(s.LanguageModelOutputSerializer(page, many=True).data)

    @extend_schema(
        tags=[TAG], request=s.LanguageModelInputSerializer, responses={201: s.LanguageModelOutputSerializer}
    )
    def post(self, request: Request, project_id: int) -> Response:
        data = s.LanguageModelInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        model = language_model_create(project=_project(self), created_by=request.user, **data.validated_data)
        return Response(s.LanguageModelOutputSerializer(model).data, status=status.HTTP_201_CREATED)


class LanguageModelDetailApi(APIView):
    """One model; PATCH changes fields (not the kind once scored); DELETE removes it with its
    configurations and stored scores."""

    @extend_schema(tags=[TAG], responses=s.LanguageModelOutputSerializer)
    def get(self, request: Request, project_id: int, model_id: int) -> Response:
        model = language_model_get(project=_project(self), model_id=model_id)
        return Response(s.LanguageModelOutputSerializer(model).data)

    @extend_schema(
        tags=[TAG], request=s.LanguageModelInputSerializer, responses=s.LanguageModelOutputSerializer
    )
    def patch(self, request: Request, project_id: int, model_id: int) -> Response:
        model = language_model_get(project=_project(self), model_id=model_id)
        data = s.LanguageModelInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        # A partial serializer still fills defaults for absent fields: keep only those sent.
        changes = {k: v for k, v in data.validated_data.items() if k in request.data}
        model = language_model_update(model=model, **changes)
        return Response(s.LanguageModelOutputSerializer(model).data)

    @extend_schema(tags=[TAG], responses={204: None})
    def delete(self, request: Request, project_id: int, model_id: int) -> Response:
        language_model_delete(model=language_model_get(project=_project(self), model_id=model_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenFrequenciesListApi(APIView):
    """The project's token frequencies (SLOR and MORCELA); POST a text or a counts file in
    ZhoBLiMP's layout with a causal model: 202 with the table, whose job makes them."""

    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(tags=[TAG], responses=s.TokenFrequenciesOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        tables = token_frequency_tables(project=_project(self))
        return Response(s.TokenFrequenciesOutputSerializer(tables, many=True).data)

    @extend_schema(
        tags=[TAG],
        request={"multipart/form-data": s.TokenFrequenciesInputSerializer},
        responses={202: s.TokenFrequenciesOutputSerializer},
    )
    def post(self, request: Request, project_id: int) -> Response:
        project = _project(self)
        data = s.TokenFrequenciesInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        model = LanguageModel.objects.filter(project=project, pk=values["language_model"]).first()
        if model is None:
            raise ValidationError(
                {"language_model": [f"This project has no model with id {values['language_model']}."]}
            )
        table = token_frequencies_create(
            project=project,
            language_model=model,
            upload=values["file"],
            origin=values["origin"],
            created_by=request.user,
        )
        return Response(s.TokenFrequenciesOutputSerializer(table).data, status=status.HTTP_202_ACCEPTED)


class TokenFrequenciesDetailApi(APIView):
    """One table of token frequencies; DELETE removes it and the unigram log-probabilities
    filled from it."""

    @extend_schema(tags=[TAG], responses=s.TokenFrequenciesOutputSerializer)
    def get(self, request: Request, project_id: int, table_id: int) -> Response:
        table = token_frequency_table_get(project=_project(self), table_id=table_id)
        return Response(s.TokenFrequenciesOutputSerializer(table).data)

    @extend_schema(tags=[TAG], responses={204: None})
    def delete(self, request: Request, project_id: int, table_id: int) -> Response:
        token_frequencies_delete(table=token_frequency_table_get(project=_project(self), table_id=table_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class LanguageModelSeriesApi(APIView):
    """Register every checkpoint found in a server folder as a model of one series (201)."""

    @extend_schema(
        tags=[TAG],
        request=s.SeriesInputSerializer,
        responses={201: s.SeriesOutputSerializer},
        description="Finds the checkpoints under `folder` (checkpoint-<step>/, step<step>/, …), and "
        "registers one model per checkpoint named '<series> step <step>'. Checkpoints of the series "
        "registered before are listed in `existing` and left as they are.",
    )
    def post(self, request: Request, project_id: int) -> Response:
        data = s.SeriesInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        outcome = language_model_series_register(
            project=_project(self), created_by=request.user, **data.validated_data
        )
        return Response(s.SeriesOutputSerializer(outcome).data, status=status.HTTP_201_CREATED)


# -- Runs -------------------------------------------------------------------------------------


def _run_detail(project: Project, run: ScoringRun) -> object:
    run = run_get(project=project, run_id=run.pk)
    run.chunk_counts = run_chunk_counts(run=run)  # type: ignore[attr-defined]  # for the serializer
    return s.RunDetailOutputSerializer(run).data


class RunListApi(GenericAPIView):
    """The project's scoring runs, newest first; creating one queues its chunks (202)."""

    serializer_class = s.RunOutputSerializer

    def get_queryset(self) -> QuerySet[ScoringRun]:
        return run_list(project=_project(self))

    @extend_schema(tags=[TAG], responses=s.RunOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(s.RunOutputSerializer(page, many=True).data)

    @extend_schema(
        tags=[TAG],
        request=s.RunCreateInputSerializer,
        responses={202: s.RunDetailOutputSerializer},
        description="Scores every dataset with every model (each with `method`, or its default), in "
        "chunks of `chunk_size` sentences on the scoring queue. Sentences already scored with the "
        "same configuration are not scored again. Follow `job` (GET jobs/<id>/) for progress.",
    )
    def post(self, request: Request, project_id: int) -> Response:
        project = _project(self)
        data = s.RunCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        model_ids = list(dict.fromkeys(values.pop("language_models")))
        dataset_ids = list(dict.fromkeys(values.pop("datasets")))
        models = {m.pk: m for m in LanguageModel.objects.filter(project=project, pk__in=model_ids)}
        datasets = {
            d.pk: d for d in Dataset.objects.filter(project=project, pk__in=dataset_ids).select_related("job")
        }
        errors: dict[str, list[str]] = {}
        for i in model_ids:
            if i not in models:
                errors.setdefault("language_models", []).append(
                    f"This project has no language model with id {i}."
                )
        for i in dataset_ids:
            if i not in datasets:
                errors.setdefault("datasets", []).append(f"This project has no dataset with id {i}.")
        if errors:
            raise ValidationError(errors)
        run = run_create(
            project=project,
            language_models=[models[i] for i in model_ids],
            datasets=[datasets[i] for i in dataset_ids],
            created_by=request.user,
            **values,
        )
        return Response(_run_detail(project, run), status=status.HTTP_202_ACCEPTED)


class RunDetailApi(APIView):
    """One run: its job (status, progress, message), datasets, configurations and chunk counts."""

    @extend_schema(tags=[TAG], responses=s.RunDetailOutputSerializer)
    def get(self, request: Request, project_id: int, run_id: int) -> Response:
        project = _project(self)
        return Response(_run_detail(project, run_get(project=project, run_id=run_id)))

    @extend_schema(tags=[TAG], parameters=[s.RunDeleteQuerySerializer], responses={204: None})
    def delete(self, request: Request, project_id: int, run_id: int) -> Response:
        """Delete the run, its chunks and job; with `delete_scores=true`, the scores only it
        stands for too (configurations no other run uses, and pair scores of datasets no other
        run scored with the others)."""
        query = _query(s.RunDeleteQuerySerializer, request)
        run_delete(
            run=run_get(project=_project(self), run_id=run_id), delete_scores=bool(query["delete_scores"])
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class RunCancelApi(APIView):
    """Cancel a queued or running run; its chunks stop before scoring, and stored scores stay."""

    @extend_schema(tags=[TAG], request=None, responses=s.RunDetailOutputSerializer)
    def post(self, request: Request, project_id: int, run_id: int) -> Response:
        project = _project(self)
        run = run_get(project=project, run_id=run_id)
        run_cancel(run=run, user=request.user)
        return Response(_run_detail(project, run))


# -- Results ----------------------------------------------------------------------------------


class LeaderboardApi(APIView):
    """Every configuration scored on the dataset, best first: overall and per-phenomenon accuracy."""

    @extend_schema(tags=[TAG], parameters=[s.ResultsQuerySerializer], responses=s.LeaderboardSerializer)
    def get(self, request: Request, project_id: int, dataset_id: int) -> Response:
        dataset = dataset_get(project=_project(self), dataset_id=dataset_id)
        query = _query(s.ResultsQuerySerializer, request)
        board = results.leaderboard(dataset, **query)
        return Response(s.LeaderboardSerializer(board).data)


class ParadigmTableApi(APIView):
    """One configuration's accuracy per paradigm of the dataset."""

    @extend_schema(
        tags=[TAG], parameters=[s.ParadigmQuerySerializer], responses=s.ParadigmRowSerializer(many=True)
    )
    def get(self, request: Request, project_id: int, dataset_id: int, config_id: int) -> Response:
        project = _project(self)
        dataset = dataset_get(project=project, dataset_id=dataset_id)
        config = config_get(project=project, config_id=config_id)
        rows = results.paradigm_table(dataset, config, **_query(s.ParadigmQuerySerializer, request))
        return Response(s.ParadigmRowSerializer(rows, many=True).data)


class ReportApi(APIView):
    """The full metrics report of one configuration on the dataset (`scoring.metrics.pair_report`):
    overall, per phenomenon and paradigm, length-equal and length-unequal subsets, warnings;
    null when nothing is scored yet. For a learner triplet dataset, `triplets` holds the BLiSS
    report (`scoring.triplet_metrics.triplet_report`: LP, HAP, HAP_tau, SO overall and by error
    type, L1, CEFR level and corpus, in bits per token; null for a minimal-pair dataset or
    while no triplet is scored)."""

    @extend_schema(tags=[TAG], parameters=[s.ParadigmQuerySerializer], responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, project_id: int, dataset_id: int, config_id: int) -> Response:
        project = _project(self)
        dataset = dataset_get(project=project, dataset_id=dataset_id)
        config = config_get(project=project, config_id=config_id)
        query = _query(s.ParadigmQuerySerializer, request)
        report = results.pair_report(dataset, config, **query)
        triplets = None
        if is_triplet_dataset(dataset):
            found = triplet_report(dataset, config, tie_tolerance=float(query["tie_tolerance"]))
            triplets = found.to_dict() if found is not None else None
        return Response(
            {
                "config": s.ScoreConfigOutputSerializer(config).data,
                "report": report.to_dict() if report is not None else None,
                "triplets": triplets,
            }
        )


class TripletReportApi(APIView):
    """The BLiSS metrics of every configuration scored on a learner triplet dataset (or those in
    `configs`): `scoring.triplet_metrics.triplet_report` per configuration (null while none of
    its triplets is scored), as `mpp score` writes it under "triplets"."""

    @extend_schema(tags=[TAG], parameters=[s.TripletQuerySerializer], responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, project_id: int, dataset_id: int) -> Response:
        project = _project(self)
        dataset = dataset_get(project=project, dataset_id=dataset_id)
        query = _query(s.TripletQuerySerializer, request)
        try:
            check_triplet_dataset(dataset)
        except results.ResultsError as exc:
            return _results_error(exc)
        ids = query.pop("configs")
        configs = _configs(project, ids, "configs") if ids else list(dataset_configs(dataset=dataset))
        entries = []
        for config in configs:
            try:
                found = triplet_report(dataset, config, **query)
            except results.ResultsError as exc:
                return _results_error(exc)
            entries.append(
                {
                    "config": s.ScoreConfigOutputSerializer(config).data,
                    "triplets": found.to_dict() if found is not None else None,
                }
            )
        return Response({"dataset": {"id": dataset.pk, "name": dataset.name}, **query, "configs": entries})


class ItemListApi(APIView):
    """A page of the dataset's pairs under one configuration: both sentences with their tokens,
    log-probs and surprisals, the scores, good - bad and the outcome."""

    @extend_schema(tags=[TAG], parameters=[s.ItemsQuerySerializer], responses=s.ItemPageSerializer)
    def get(self, request: Request, project_id: int, dataset_id: int, config_id: int) -> Response:
        project = _project(self)
        dataset = dataset_get(project=project, dataset_id=dataset_id)
        config = config_get(project=project, config_id=config_id)
        query = _query(s.ItemsQuerySerializer, request)
        if "differs_from" in query:
            [query["differs_from"]] = _configs(project, [int(query["differs_from"])], "differs_from")
        try:
            page = results.item_rows(dataset, config, **query)
        except results.ResultsError as exc:
            return _results_error(exc)
        return Response(s.ItemPageSerializer(page).data)


class CompareApi(APIView):
    """Configurations side by side on the dataset, per paradigm, with the pairs where they disagree."""

    @extend_schema(tags=[TAG], parameters=[s.CompareQuerySerializer], responses=s.ComparisonSerializer)
    def get(self, request: Request, project_id: int, dataset_id: int) -> Response:
        project = _project(self)
        dataset = dataset_get(project=project, dataset_id=dataset_id)
        query = _query(s.CompareQuerySerializer, request)
        configs = _configs(project, query.pop("configs"), "configs")
        comparison = results.compare(dataset, configs, **query)
        return Response(s.ComparisonSerializer(comparison).data)


class LearningCurveApi(APIView):
    """A checkpoint series' accuracy on the dataset by training step, overall and per phenomenon."""

    @extend_schema(tags=[TAG], parameters=[s.CurveQuerySerializer], responses=s.LearningCurveSerializer)
    def get(self, request: Request, project_id: int, dataset_id: int) -> HttpResponseBase:
        project = _project(self)
        dataset = dataset_get(project=project, dataset_id=dataset_id)
        query = _query(s.CurveQuerySerializer, request)
        series = str(query.pop("series"))
        download = query.pop("download", "")
        if not LanguageModel.objects.filter(project=project, series=series).exists():
            raise ValidationError({"series": [f"This project has no checkpoint series '{series}'."]})
        curve = results.learning_curve(project, series, dataset, **query)
        if download == "csv":
            return curve_response(curve)
        return Response(s.LearningCurveSerializer(curve).data)


class ExportApi(APIView):
    """Download per-item scores (CSV, or JSON Lines with every token) or metrics (CSV or JSON), streamed."""

    renderer_classes = (JSONRenderer,)
    content_negotiation_class = QueryFormatNegotiation

    @extend_schema(
        tags=[TAG],
        parameters=[s.ExportQuerySerializer],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description="The export file."),
            (200, "application/jsonl"): OpenApiResponse(OpenApiTypes.BINARY, description="The export file."),
            (200, "application/json"): OpenApiResponse(OpenApiTypes.BINARY, description="The export file."),
        },
    )
    def get(self, request: Request, project_id: int, dataset_id: int) -> HttpResponseBase:
        project = _project(self)
        dataset = dataset_get(project=project, dataset_id=dataset_id)
        query = _query(s.ExportQuerySerializer, request)
        if query["what"] in TRIPLET_EXPORTS:
            try:
                check_triplet_dataset(dataset)
            except results.ResultsError as exc:
                return _results_error(exc, "what")  # a triplet export of a dataset without triplets
        if query["what"] in ("items", "triplets"):
            configs = [config_get(project=project, config_id=int(query["config"]))]
        elif query["configs"]:
            configs = _configs(project, query["configs"], "configs")
        else:
            configs = list(dataset_configs(dataset=dataset))
        try:
            return export_response(
                dataset,
                str(query["what"]),
                str(query["format"]),
                configs,
                reduction=str(query["reduction"]),
                tie_tolerance=float(query["tie_tolerance"]),
            )
        except results.ResultsError as exc:
            return _results_error(exc)
