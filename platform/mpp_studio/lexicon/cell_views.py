"""The item table edited like a spreadsheet: each cell of an item saves on its own when it changes.

The page never redraws the row while its cells are being typed into (a redraw would take the
focus and the characters typed meanwhile): the answer only sets the cell's message, blank once
saved, or why the value was refused, the typed text staying in the cell to be corrected.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from mpp_studio.accounts.roles import Role
from mpp_studio.lexicon.engine import schema_from_json
from mpp_studio.lexicon.forms import FEATURE_PREFIX
from mpp_studio.lexicon.selectors import vocabulary_get, vocabulary_item_get
from mpp_studio.lexicon.services import vocabulary_item_update
from mpp_studio.lexicon.views import project_for

# The columns a cell may change besides the features (`f-<feature>`); the id stays as it is:
# pairs and updates from files find items by it.
TEXT_COLUMNS = ("form", "lemma", "pos")


@login_required
@require_POST
def item_cell(request: HttpRequest, project_id: int, vocabulary_id: int, item_pk: int) -> HttpResponse:
    """Save one cell of an item (`column`: form, lemma, pos or f-<feature>; `value`); editors.
    Answers the cell's message for htmx to place (blank: saved)."""
    project, _ = project_for(request, project_id, Role.EDITOR)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    item = vocabulary_item_get(vocabulary=vocabulary, item_pk=item_pk)
    column = request.POST.get("column", "")
    value = request.POST.get("value", "")
    message = ""
    feature = column.removeprefix(FEATURE_PREFIX) if column.startswith(FEATURE_PREFIX) else None
    if column not in TEXT_COLUMNS and (
        feature is None or feature not in schema_from_json(vocabulary.schema).features
    ):
        message = f"'{column}' is not a column of this table"
    else:
        try:
            if feature is not None:
                vocabulary_item_update(item=item, features={feature: value}, replace_features=False)
            else:
                vocabulary_item_update(
                    item=item,
                    form=value if column == "form" else None,
                    lemma=value if column == "lemma" else None,
                    pos=value if column == "pos" else None,
                )
        except ValidationError as exc:
            message = "; ".join(exc.messages)
    context = {"item": item, "column": column, "message": message}
    return render(request, "lexicon/_cell_message.html", context, status=200)
