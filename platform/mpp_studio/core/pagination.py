"""The API's page numbers (REST_FRAMEWORK's DEFAULT_PAGINATION_CLASS).

The schema says `page` is an integer. DRF also takes `page=` (as page 1) and `page=last`, and
reads one of several `page` values: here a page that is not one whole number is a 400 naming
`page`; a number below 1 or past the last page stays DRF's 404.
"""

from typing import Any

from django.core.paginator import Paginator
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


class StrictPageNumberPagination(PageNumberPagination):
    """DRF's page-number pagination, reading `page` only as one whole number."""

    last_page_strings = ()

    def get_page_number(self, request: Request, paginator: Paginator) -> int:
        """Return the page asked for (1 when none is), or raise a 400 naming `page`."""
        values = request.query_params.getlist(self.page_query_param)
        if not values:
            return 1
        digits = values[0].removeprefix("-")
        if len(values) > 1 or not (digits.isascii() and digits.isdigit()):
            raise ValidationError({self.page_query_param: ["Give one page number: a whole number from 1."]})
        return int(values[0])  # below 1 or past the last page: DRF's 404

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """Return DRF's description of `page`, which is a whole number from 1."""
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {**parameter["schema"], "minimum": 1}
        return parameters
