"""A template's YAML text as a file download named after its uid."""

import re

from django.http import HttpResponse

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def yaml_attachment(text: str, uid: str) -> HttpResponse:
    """Return a response that downloads `text` as `<uid>.yaml` (UTF-8)."""
    name = _UNSAFE.sub("_", uid).strip("._") or "template"
    response = HttpResponse(text.encode("utf-8"), content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.yaml"'
    return response
