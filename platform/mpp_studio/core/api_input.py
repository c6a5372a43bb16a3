"""How the API reads a request's fields: exactly as the OpenAPI schema describes them.

DRF is lenient where the schema is not: it takes the number 0 for the text "0" and for false,
"5" for the integer 5, drops an empty form or query value of an optional field as if it had not
been sent, and checks a text's length after trimming its spaces. `InputSerializer`, the base of
every API input and query serializer, refuses all of these with a 400 naming the field, so that
what the schema calls invalid is invalid (and the schema in `core.schema` says what is valid).
"""

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.datastructures import MultiValueDict
from rest_framework import serializers
from rest_framework.relations import ManyRelatedField, PrimaryKeyRelatedField
from rest_framework.utils import html

FORM_BOOLEANS = {"true": True, "false": False}


def _json_type_problem(field: serializers.Field, value: object) -> object:
    """Return why a JSON value has the wrong type for `field`, where DRF would take it (None if
    it has the right type, or DRF refuses it in its own words); a list's problems by index."""
    if value is None:
        return None  # DRF's own allow_null check answers
    problem = _wrong_type(field, value)
    if problem is None or isinstance(problem, dict):
        return problem
    try:
        field.run_validation(value)
    except (serializers.ValidationError, DjangoValidationError):
        return None
    return problem


def _wrong_type(field: serializers.Field, value: object) -> object:
    """Return why `value` is not of the JSON type the schema gives `field` (None if it is)."""
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "Must be true or false."
    if isinstance(field, (serializers.IntegerField, PrimaryKeyRelatedField)):
        whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        return None if whole and not isinstance(value, bool) else "Must be a whole number."
    if isinstance(field, (serializers.FloatField, serializers.DecimalField)):
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if number else "Must be a number."
    if isinstance(field, (serializers.ListField, ManyRelatedField, serializers.MultipleChoiceField)):
        if not isinstance(value, list):
            return "Must be a list."
        child = getattr(field, "child", None) or getattr(field, "child_relation", None)
        problems = {i: _json_type_problem(child, item) for i, item in enumerate(value)} if child else {}
        return {i: [p] for i, p in problems.items() if p} or None
    if isinstance(field, serializers.ChoiceField):
        kinds = {type(choice) for choice in field.choices}
        return None if type(value) in kinds else "Must be one of the listed choices."
    if isinstance(field, serializers.CharField):
        return None if isinstance(value, str) else "Must be text."
    if isinstance(field, (serializers.DictField, serializers.Serializer)):
        return None if isinstance(value, dict) else "Must be an object."
    return None


def _text_too_long(field: serializers.Field, value: object) -> str | None:
    """Return DRF's message when a text is longer than the field's max_length before trimming."""
    limit = getattr(field, "max_length", None)
    if isinstance(field, serializers.CharField) and isinstance(value, str) and limit and len(value) > limit:
        return str(field.error_messages["max_length"]).format(max_length=limit)
    return None


def _form_value_problem(field: serializers.Field, value: object) -> object:
    """Return the errors of a form or query value DRF would not check (None if it is usable)."""
    if isinstance(field, (serializers.ListField, ManyRelatedField, serializers.FileField)):
        return None  # read with getlist, or a file part: DRF checks them
    if isinstance(field, serializers.BooleanField) and isinstance(value, str):
        return None if value.lower() in FORM_BOOLEANS else "Must be true or false."
    if value == "" and not field.required and not field.allow_null:
        # DRF treats an empty value of an optional field as not sent (as null where null is
        # allowed, which a form cannot write otherwise); it was sent: check it.
        try:
            field.run_validation("")
        except serializers.ValidationError as exc:
            return exc.detail
    return None


def _form_nulls(data: Any, fields: Any) -> Any:
    """Return form data with the word null of a field that takes null as DRF's empty value, which
    it reads as null there (a form has no other way to write null; DRF's BooleanField reads the
    word too)."""
    nulls = [
        field.field_name
        for field in fields
        if field.allow_null
        and data.get(field.field_name) == "null"
        and not getattr(field, "allow_blank", False)
    ]
    if not nulls:
        return data
    copied = MultiValueDict(data.lists())
    for name in nulls:
        copied.setlist(name, [""])
    return copied


class InputSerializer(serializers.Serializer):
    """A serializer of API input (a body, or query parameters) that takes each field only in the
    type the schema gives it: text as text, numbers as numbers, true/false as booleans (in a
    form, the words true or false), a list as a list; an empty value is checked, not ignored."""

    def to_internal_value(self, data: Any) -> Any:
        """Refuse values of the wrong type, then validate as DRF does."""
        if isinstance(data, Mapping):
            form = html.is_html_input(data)
            if form:
                data = _form_nulls(data, self._writable_fields)
            # What DRF's ValidationError takes: messages, lists of them, and dicts keyed by a
            # list's indices.
            errors: dict[str, Any] = {}
            for field in self._writable_fields:
                name = field.field_name
                assert name is not None  # the serializer has bound its fields
                if name not in data:
                    continue
                value = data.get(name)
                problem = _form_value_problem(field, value) if form else _json_type_problem(field, value)
                problem = problem or _text_too_long(field, value)
                if problem:
                    errors[name] = problem if isinstance(problem, (list, dict)) else [problem]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)
