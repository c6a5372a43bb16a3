"""The REST API: every app's endpoints under /api/, the OpenAPI schema and its docs page."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

urlpatterns = [
    path("", include("mpp_studio.accounts.api_urls")),
    path("projects/<int:project_id>/", include("mpp_studio.lexicon.api_urls")),
    path("projects/<int:project_id>/", include("mpp_studio.paradigms.api_urls")),
    path("library/", include("mpp_studio.paradigms.library_api_urls")),
    path("projects/<int:project_id>/", include("mpp_studio.datasets.api_urls")),
    path("projects/<int:project_id>/", include("mpp_studio.evaluation.api_urls")),
    path("projects/<int:project_id>/learner/", include("mpp_studio.learner.api_urls")),
    path("projects/<int:project_id>/studies/", include("mpp_studio.studies.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file, and our page its styles: the CSP
    # refuses inline scripts and style elements.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="core/swagger_ui.html"),
        name="api-docs",
    ),
]
