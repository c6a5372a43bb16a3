"""The REST API: every app's endpoints under /api/, the OpenAPI schema and its docs page."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path, reverse
from django.views.decorators.http import require_GET
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView


class ApiDocsView(SpectacularSwaggerSplitView):
    """The Swagger UI page. `OPTIONS` lists its methods: the view's HTML renderer has no template
    for an OPTIONS answer and raised (a 500)."""

    def options(  # type: ignore[override]  # a plain HttpResponse, without DRF's renderers
        self, request: HttpRequest, *args: object, **kwargs: object
    ) -> HttpResponse:
        """Return the methods this page answers."""
        return HttpResponse(headers={"Allow": "GET, HEAD, OPTIONS"})


@require_GET
def api_root(request: HttpRequest) -> JsonResponse:
    """Where the API starts: its documentation, its schema, the token endpoint and the lists a
    client begins from (a plain GET of /api/ used to answer 404)."""
    links = {
        "docs": "api-docs",
        "schema": "api-schema",
        "token": "accounts_api:token",
        "projects": "accounts_api:project_list",
    }
    return JsonResponse(
        {
            "name": "MPP Studio API",
            **{key: request.build_absolute_uri(reverse(name)) for key, name in links.items()},
            "library": request.build_absolute_uri("/api/library/"),
            "authentication": "Send 'Authorization: Token <key>'; the key is on /account/token/, "
            "or POST a username and password to `token`.",
        }
    )


urlpatterns = [
    path("", api_root, name="api-root"),
    path("", include("mpp_studio.accounts.api_urls")),
    path("projects/<id:project_id>/", include("mpp_studio.lexicon.api_urls")),
    path("projects/<id:project_id>/", include("mpp_studio.paradigms.api_urls")),
    path("library/", include("mpp_studio.paradigms.library_api_urls")),
    path("projects/<id:project_id>/", include("mpp_studio.datasets.api_urls")),
    path("projects/<id:project_id>/", include("mpp_studio.evaluation.api_urls")),
    path("projects/<id:project_id>/learner/", include("mpp_studio.learner.api_urls")),
    path("projects/<id:project_id>/studies/", include("mpp_studio.studies.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file, and our page its styles: the CSP
    # refuses inline scripts and style elements.
    path(
        "docs/",
        ApiDocsView.as_view(url_name="api-schema", template_name="core/swagger_ui.html"),
        name="api-docs",
    ),
]
