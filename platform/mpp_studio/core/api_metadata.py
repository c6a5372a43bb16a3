"""What `OPTIONS` answers on every API endpoint (REST_FRAMEWORK's DEFAULT_METADATA_CLASS).

Its own module: DRF reads this setting while `rest_framework.views` is being imported, so nothing
here may import that module at run time.
"""

from typing import TYPE_CHECKING

from rest_framework.metadata import SimpleMetadata
from rest_framework.request import Request

if TYPE_CHECKING:
    from rest_framework.views import APIView


class DescriptionOnlyMetadata(SimpleMetadata):
    """The endpoint's name, description, and the formats it renders and parses. DRF's default
    also describes the PUT/POST fields, for which it fetches the object through `get_queryset()`,
    which our views (selecting through services) do not define: a 500. The fields are in the
    OpenAPI schema (/api/schema/)."""

    def determine_actions(self, request: Request, view: "APIView") -> dict[str, object]:
        """Return no actions: the field descriptions live in the OpenAPI schema."""
        return {}

    def determine_metadata(self, request: Request, view: "APIView") -> dict[str, object]:
        """Return the endpoint's name, description, renders and parses."""
        metadata = dict(super().determine_metadata(request, view))
        metadata.pop("actions", None)
        return metadata
