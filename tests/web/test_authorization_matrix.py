"""The authorization matrix: every URL pattern of the project x every role x every method it takes.

The patterns are enumerated from the resolver, so a new page or endpoint without a row in
`MATRIX` fails `test_every_url_pattern_is_declared`. Each row says, per method, who may do it:

- "public": anyone (sign-in, health check, the API schema, an invitation link's page).
- "visitor": anyone not signed in (sign-up); the signed-in are sent on (302).
- "user": any signed-in account; visitors are sent to sign in (pages) or get 401 (API).
- "viewer" / "editor" / "owner": the least project role; a member below it gets 403, a member of
  another project 404 (the project is not revealed), a visitor the sign-in page or 401.
- "participant": the study participant's token in the URL; anyone else, who only has a forged
  token, gets the page saying the link is not valid (403).
- "self": the owner, or the member the URL names (the viewer; leaving a project).
- "staff": Django's admin; no role here is staff, so every one is sent to the admin sign-in.

Writes run inside a savepoint rolled back after each request, so one request's delete never
hides the next row's object. The per-app permission tests check each app's details (messages,
what is left unchanged); this is the cross-cutting check that no URL is missing or open.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.web.authorization_world import World, build_world

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "participant", "viewer", "editor", "owner", "outsider")
VISITORS = ("anonymous", "participant")
OPEN = ("public", "visitor", "participant")
RANK = {"viewer": 1, "editor": 2, "owner": 3}
PAGE_OK = {"GET": {200}, "POST": {200, 302, 400}}
API_OK = {"GET": {200}, "POST": {200, 201, 202, 204, 400}, "PUT": {200, 400}, "PATCH": {200, 400}}
API_OK["DELETE"] = {200, 204}

# route -> {method: who may, ...}; a third key "ok" overrides the statuses that count as allowed.
MATRIX: dict[str, dict[str, Any]] = {
    # -- Dashboard, library, accounts -----------------------------------------------------------
    "": {"GET": "user"},
    "library/": {"GET": "user"},
    "paradigms/<id:template_id>/": {"GET": "user"},
    "paradigms/<id:template_id>/download/": {"GET": "user"},
    # The project to import into is a form field, checked after the form (an empty one goes back).
    "paradigms/import/": {"POST": "user", "ok": {"POST": {302}}},
    # Someone already signed in is sent on to the dashboard.
    "signup/": {"GET": "visitor", "POST": "visitor"},
    "account/token/": {"GET": "user", "POST": "user"},
    "projects/new/": {"GET": "user", "POST": "user"},
    "projects/<id:project_id>/": {"GET": "viewer", "ok": {"GET": {302}}},
    "projects/<id:project_id>/settings/": {"GET": "owner", "POST": "owner"},
    "projects/<id:project_id>/delete/": {"GET": "owner", "POST": "owner"},
    "projects/<id:project_id>/members/": {"GET": "viewer"},
    "projects/<id:project_id>/members/<id:user_id>/role/": {"POST": "owner"},
    "projects/<id:project_id>/members/<id:user_id>/remove/": {"POST": "owner"},
    "projects/<id:project_id>/leave/": {"POST": "viewer"},
    "projects/<id:project_id>/invitations/": {"POST": "owner"},
    "projects/<id:project_id>/invitations/<id:invitation_id>/revoke/": {"POST": "owner"},
    # Anyone with the link sees what it invites to (and is asked to sign in to accept).
    "invitations/<str:token>/": {"GET": "public", "POST": "user"},
    # -- Vocabularies ---------------------------------------------------------------------------
    "projects/<id:project_id>/vocabularies/": {"GET": "viewer"},
    "projects/<id:project_id>/vocabularies/new/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/vocabularies/import/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/vocabularies/imports/<id:import_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/vocabularies/imports/jobs/<id:job_id>/status/": {"GET": "viewer"},
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/export/<str:fmt>/": {"GET": "viewer"},
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/settings/": {
        "GET": "editor",
        "POST": "editor",
    },
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/delete/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/items/new/": {
        "GET": "editor",
        "POST": "editor",
    },
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/items/<id:item_pk>/edit/": {
        "GET": "editor",
        "POST": "editor",
    },
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/items/<id:item_pk>/delete/": {
        "GET": "editor",
        "POST": "editor",
    },
    # An empty form names no column: the answer is the cell's message saying so.
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/items/<id:item_pk>/cell/": {"POST": "editor"},
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/update/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/updates/<id:update_id>/": {"GET": "viewer"},
    # The world's update is still being read: applying or discarding it goes back with a message.
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/updates/<id:update_id>/apply/": {
        "POST": "editor",
        "ok": {"POST": {302}},
    },
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/updates/<id:update_id>/discard/": {
        "POST": "editor",
        "ok": {"POST": {302}},
    },
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/versions/<id:snapshot_id>/<str:fmt>/": {
        "GET": "viewer"
    },
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/schema/": {"GET": "viewer"},
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/schema/yaml/": {
        "GET": "editor",
        "POST": "editor",
    },
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/schema/new/": {
        "GET": "editor",
        "POST": "editor",
    },
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/schema/edit/<path:feature>": {
        "GET": "editor",
        "POST": "editor",
    },
    "projects/<id:project_id>/vocabularies/<id:vocabulary_id>/schema/delete/<path:feature>": {
        "GET": "editor",
        "POST": "editor",
    },
    # -- Templates and phrases ------------------------------------------------------------------
    "projects/<id:project_id>/templates/": {"GET": "viewer"},
    "projects/<id:project_id>/templates/new/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/templates/editor/table/": {"POST": "editor"},
    "projects/<id:project_id>/templates/editor/preview/": {"POST": "editor"},
    "projects/<id:project_id>/templates/editor/draft/": {"POST": "editor"},
    "projects/<id:project_id>/templates/editor/draft/discard/": {"POST": "editor"},
    "projects/<id:project_id>/templates/<id:template_id>/duplicate/": {"POST": "editor"},
    "projects/<id:project_id>/templates/<id:template_id>/compare/": {"GET": "viewer"},
    "projects/<id:project_id>/templates/<id:template_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/templates/<id:template_id>/edit/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/templates/<id:template_id>/versions/<id:number>/": {"GET": "viewer"},
    "projects/<id:project_id>/templates/<id:template_id>/versions/<id:number>/restore/": {"POST": "editor"},
    "projects/<id:project_id>/templates/upload/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/templates/import/zhoblimp/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/templates/import/zhoblimp/<id:import_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/templates/import/library/<id:import_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/templates/import/jobs/<id:job_id>/status/": {"GET": "viewer"},
    "projects/<id:project_id>/templates/<id:template_id>/download/": {"GET": "viewer"},
    "projects/<id:project_id>/phrases/": {"GET": "viewer"},
    "projects/<id:project_id>/phrases/new/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/phrases/<id:phrase_id>/": {"GET": "viewer", "POST": "editor"},
    # The phrase is used by a template: deleting it is refused with 409 and the templates named.
    "projects/<id:project_id>/phrases/<id:phrase_id>/delete/": {
        "GET": "editor",
        "POST": "editor",
        "ok": {"POST": {409}},
    },
    # -- Datasets and jobs ----------------------------------------------------------------------
    "projects/<id:project_id>/datasets/": {"GET": "viewer"},
    "projects/<id:project_id>/datasets/new/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/datasets/import/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/datasets/<id:dataset_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/datasets/<id:dataset_id>/status/": {"GET": "viewer"},
    "projects/<id:project_id>/datasets/<id:dataset_id>/pairs/": {"GET": "viewer"},
    "projects/<id:project_id>/datasets/<id:dataset_id>/quality/<str:uid>/": {"GET": "viewer"},
    "projects/<id:project_id>/datasets/<id:dataset_id>/pairs/<id:pair_id>/": {"GET": "viewer"},
    # An empty form: no paradigm is named, and the pairs page says so.
    "projects/<id:project_id>/datasets/<id:dataset_id>/pairs/write/": {
        "POST": "editor",
        "ok": {"POST": {302}},
    },
    # An empty form: the decision is refused and the pair's page says why.
    "projects/<id:project_id>/datasets/<id:dataset_id>/pairs/<id:pair_id>/review/": {
        "POST": "editor",
        "ok": {"POST": {302}},
    },
    "projects/<id:project_id>/datasets/<id:dataset_id>/export/": {"GET": "viewer"},
    "projects/<id:project_id>/datasets/<id:dataset_id>/cancel/": {"POST": "editor"},
    "projects/<id:project_id>/datasets/<id:dataset_id>/paradigms/<id:paradigm_id>/retry/": {"POST": "editor"},
    "projects/<id:project_id>/datasets/<id:dataset_id>/delete/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/jobs/<id:job_id>/status/": {"GET": "viewer"},
    # -- Scoring --------------------------------------------------------------------------------
    "projects/<id:project_id>/scoring/": {"GET": "viewer"},
    "projects/<id:project_id>/scoring/models/": {"GET": "viewer", "POST": "editor"},
    "projects/<id:project_id>/scoring/models/series/": {"POST": "editor"},
    "projects/<id:project_id>/scoring/models/<id:model_id>/delete/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/scoring/models/frequencies/": {"POST": "editor"},
    "projects/<id:project_id>/scoring/models/frequencies/<id:table_id>/delete/": {"POST": "editor"},
    "projects/<id:project_id>/scoring/runs/new/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/scoring/runs/<id:run_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/scoring/runs/<id:run_id>/status/": {"GET": "viewer"},
    "projects/<id:project_id>/scoring/runs/<id:run_id>/cancel/": {"POST": "editor"},
    "projects/<id:project_id>/scoring/runs/<id:run_id>/delete/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/scoring/results/<id:dataset_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/scoring/results/<id:dataset_id>/compare/": {"GET": "viewer"},
    "projects/<id:project_id>/scoring/results/<id:dataset_id>/learning-curve/": {"GET": "viewer"},
    "projects/<id:project_id>/scoring/results/<id:dataset_id>/export/": {"GET": "viewer"},
    "projects/<id:project_id>/scoring/results/<id:dataset_id>/configs/<id:config_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/scoring/results/<id:dataset_id>/configs/<id:config_id>/items/": {
        "GET": "viewer"
    },
    "projects/<id:project_id>/scoring/results/<id:dataset_id>/plausibility/<str:uid>/": {"GET": "viewer"},
    "projects/<id:project_id>/scoring/jobs/<id:job_id>/status/": {"GET": "viewer"},
    # -- Learner corpora ------------------------------------------------------------------------
    "projects/<id:project_id>/learner/": {"GET": "viewer"},
    "projects/<id:project_id>/learner/upload/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/learner/corpora/<id:corpus_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/learner/corpora/<id:corpus_id>/runs/new/": {"POST": "editor"},
    "projects/<id:project_id>/learner/runs/<id:run_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/learner/runs/<id:run_id>/status/": {"GET": "viewer"},
    "projects/<id:project_id>/learner/runs/<id:run_id>/triplets/": {"GET": "viewer"},
    "projects/<id:project_id>/learner/runs/<id:run_id>/dropped/": {"GET": "viewer"},
    "projects/<id:project_id>/learner/runs/<id:run_id>/export/": {"GET": "viewer"},
    "projects/<id:project_id>/learner/runs/<id:run_id>/report.json": {"GET": "viewer"},
    "projects/<id:project_id>/learner/jobs/<id:job_id>/status/": {"GET": "viewer"},
    # -- Studies (researcher) -------------------------------------------------------------------
    "projects/<id:project_id>/studies/": {"GET": "viewer"},
    "projects/<id:project_id>/studies/new/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/studies/<id:study_id>/": {"GET": "viewer"},
    "projects/<id:project_id>/studies/<id:study_id>/edit/": {"GET": "editor", "POST": "editor"},
    "projects/<id:project_id>/studies/<id:study_id>/status/": {"GET": "viewer"},
    "projects/<id:project_id>/studies/<id:study_id>/open/": {"POST": "editor"},
    "projects/<id:project_id>/studies/<id:study_id>/close/": {"POST": "editor"},
    # Pasted Prolific IDs matched by hash (nothing stored): any member.
    "projects/<id:project_id>/studies/<id:study_id>/prolific/": {"GET": "viewer", "POST": "viewer"},
    # The data-free preview of what participants see (nothing stored): any member.
    "projects/<id:project_id>/studies/<id:study_id>/preview/": {"GET": "viewer"},
    "projects/<id:project_id>/studies/<id:study_id>/preview/consent/": {"GET": "viewer"},
    "projects/<id:project_id>/studies/<id:study_id>/preview/trial/": {"GET": "viewer"},
    "projects/<id:project_id>/studies/<id:study_id>/preview/answer/": {"POST": "viewer"},
    "projects/<id:project_id>/studies/<id:study_id>/preview/done/": {"GET": "viewer"},
    "projects/<id:project_id>/studies/<id:study_id>/preview/withdraw/": {"GET": "viewer"},
    "projects/<id:project_id>/studies/<id:study_id>/analysis/": {"GET": "viewer"},
    "projects/<id:project_id>/studies/<id:study_id>/analysis/rules/": {"POST": "editor"},
    "projects/<id:project_id>/studies/<id:study_id>/analysis/export/<str:what>/": {"GET": "viewer"},
    "projects/<id:project_id>/studies/<id:study_id>/analysis/publish/": {"POST": "editor"},
    "projects/<id:project_id>/studies/<id:study_id>/analysis/revalidate/": {"POST": "editor"},
    # -- Studies (participants) -----------------------------------------------------------------
    "s/<str:slug>/": {"GET": "public", "POST": "public"},
    "s/<str:slug>/run/<str:token>/": {"GET": "participant"},
    "s/<str:slug>/run/<str:token>/trial/": {"GET": "participant"},
    "s/<str:slug>/run/<str:token>/answer/": {"POST": "participant", "ok": {"POST": {200, 400}}},
    "s/<str:slug>/run/<str:token>/done/": {"GET": "participant", "ok": {"GET": {200, 302}}},
    "s/<str:slug>/run/<str:token>/withdraw/": {"GET": "participant", "POST": "participant"},
    # -- API: accounts --------------------------------------------------------------------------
    "api/token/": {"POST": "public", "ok": {"POST": {400}}},
    "api/projects/": {"GET": "user", "POST": "user"},
    "api/projects/<id:project_id>/": {"GET": "viewer", "PATCH": "owner", "DELETE": "owner"},
    "api/projects/<id:project_id>/members/": {"GET": "viewer"},
    # The member named is the viewer: anyone may leave, so the viewer may delete their own membership.
    "api/projects/<id:project_id>/members/<id:user_id>/": {
        "GET": "viewer",
        "PATCH": "owner",
        "DELETE": "self",
    },
    "api/projects/<id:project_id>/invitations/": {"GET": "owner", "POST": "owner"},
    "api/projects/<id:project_id>/invitations/<id:invitation_id>/": {"GET": "owner", "DELETE": "owner"},
    "api/invitations/<str:token>/accept/": {"POST": "user"},
    # -- API: vocabularies ----------------------------------------------------------------------
    "api/projects/<id:project_id>/vocabularies/": {"GET": "viewer", "POST": "editor"},
    "api/projects/<id:project_id>/vocabularies/import/": {"POST": "editor"},
    "api/projects/<id:project_id>/vocabularies/import/converted/": {"POST": "editor"},
    "api/projects/<id:project_id>/vocabularies/imports/<id:import_id>/": {"GET": "viewer"},
    "api/projects/<id:project_id>/vocabularies/<id:vocabulary_id>/": {
        "GET": "viewer",
        "PATCH": "editor",
        "DELETE": "editor",
    },
    "api/projects/<id:project_id>/vocabularies/<id:vocabulary_id>/items/": {
        "GET": "viewer",
        "POST": "editor",
    },
    "api/projects/<id:project_id>/vocabularies/<id:vocabulary_id>/items/<id:item_pk>/": {
        "GET": "viewer",
        "PATCH": "editor",
        "DELETE": "editor",
    },
    "api/projects/<id:project_id>/vocabularies/<id:vocabulary_id>/export/": {"GET": "viewer"},
    "api/projects/<id:project_id>/vocabularies/<id:vocabulary_id>/updates/": {"POST": "editor"},
    "api/projects/<id:project_id>/vocabularies/<id:vocabulary_id>/updates/<id:update_id>/": {"GET": "viewer"},
    # The world's update is still being read: applying or discarding it is refused (409).
    "api/projects/<id:project_id>/vocabularies/<id:vocabulary_id>/updates/<id:update_id>/apply/": {
        "POST": "editor",
        "ok": {"POST": {409}},
    },
    "api/projects/<id:project_id>/vocabularies/<id:vocabulary_id>/updates/<id:update_id>/discard/": {
        "POST": "editor",
        "ok": {"POST": {409}},
    },
    # -- API: templates, phrases, library -------------------------------------------------------
    "api/projects/<id:project_id>/templates/": {"GET": "viewer", "POST": "editor"},
    "api/projects/<id:project_id>/templates/preview/": {"POST": "viewer"},
    "api/projects/<id:project_id>/templates/import/zhoblimp/": {"POST": "editor"},
    "api/projects/<id:project_id>/templates/import/zhoblimp/<id:import_id>/": {"GET": "viewer"},
    "api/projects/<id:project_id>/templates/import/library/<id:import_id>/": {"GET": "viewer"},
    # The template and phrase are used (by a dataset, by the template): deleting is refused, 409.
    "api/projects/<id:project_id>/templates/<id:template_id>/": {
        "GET": "viewer",
        "DELETE": "editor",
        "ok": {"DELETE": {409}},
    },
    "api/projects/<id:project_id>/templates/<id:template_id>/versions/": {
        "GET": "viewer",
        "POST": "editor",
    },
    "api/projects/<id:project_id>/templates/<id:template_id>/versions/<id:number>/": {"GET": "viewer"},
    "api/projects/<id:project_id>/phrases/": {"GET": "viewer", "POST": "editor"},
    "api/projects/<id:project_id>/phrases/<id:phrase_id>/": {
        "GET": "viewer",
        "PUT": "editor",
        "PATCH": "editor",
        "DELETE": "editor",
        "ok": {"DELETE": {409}},
    },
    "api/library/": {"GET": "user"},
    "api/library/<id:template_id>/": {"GET": "user"},
    "api/library/import/": {"POST": "user"},
    # -- API: datasets and jobs -----------------------------------------------------------------
    "api/projects/<id:project_id>/datasets/": {"GET": "viewer", "POST": "editor"},
    "api/projects/<id:project_id>/datasets/import/": {"POST": "editor"},
    "api/projects/<id:project_id>/datasets/<id:dataset_id>/": {"GET": "viewer", "DELETE": "editor"},
    "api/projects/<id:project_id>/datasets/<id:dataset_id>/pairs/": {"GET": "viewer"},
    "api/projects/<id:project_id>/datasets/<id:dataset_id>/pairs/<id:pair_id>/review/": {
        "PUT": "editor",
        "DELETE": "editor",
    },
    "api/projects/<id:project_id>/datasets/<id:dataset_id>/export/": {"GET": "viewer"},
    "api/projects/<id:project_id>/datasets/<id:dataset_id>/paradigms/<str:uid>/quality/": {"GET": "viewer"},
    "api/projects/<id:project_id>/jobs/<id:job_id>/": {"GET": "viewer"},
    "api/projects/<id:project_id>/jobs/<id:job_id>/cancel/": {"POST": "editor"},
    # -- API: scoring ---------------------------------------------------------------------------
    "api/projects/<id:project_id>/language-models/": {"GET": "viewer", "POST": "editor"},
    "api/projects/<id:project_id>/language-models/series/": {"POST": "editor"},
    "api/projects/<id:project_id>/language-models/<id:model_id>/": {
        "GET": "viewer",
        "PATCH": "editor",
        "DELETE": "editor",
    },
    "api/projects/<id:project_id>/token-frequencies/": {"GET": "viewer", "POST": "editor"},
    "api/projects/<id:project_id>/token-frequencies/<id:table_id>/": {"GET": "viewer", "DELETE": "editor"},
    "api/projects/<id:project_id>/scoring-runs/": {"GET": "viewer", "POST": "editor"},
    "api/projects/<id:project_id>/scoring-runs/<id:run_id>/": {"GET": "viewer", "DELETE": "editor"},
    "api/projects/<id:project_id>/scoring-runs/<id:run_id>/cancel/": {"POST": "editor"},
    "api/projects/<id:project_id>/results/<id:dataset_id>/leaderboard/": {"GET": "viewer"},
    # These need query parameters (configurations, a series, a triplet dataset's scores): members
    # get past the role check to the 400 that names the missing parameter.
    "api/projects/<id:project_id>/results/<id:dataset_id>/compare/": {
        "GET": "viewer",
        "ok": {"GET": {400}},
    },
    "api/projects/<id:project_id>/results/<id:dataset_id>/learning-curve/": {
        "GET": "viewer",
        "ok": {"GET": {400}},
    },
    "api/projects/<id:project_id>/results/<id:dataset_id>/export/": {"GET": "viewer", "ok": {"GET": {400}}},
    "api/projects/<id:project_id>/results/<id:dataset_id>/triplets/": {
        "GET": "viewer",
        "ok": {"GET": {400}},
    },
    "api/projects/<id:project_id>/results/<id:dataset_id>/configs/<id:config_id>/paradigms/": {
        "GET": "viewer"
    },
    "api/projects/<id:project_id>/results/<id:dataset_id>/configs/<id:config_id>/report/": {"GET": "viewer"},
    "api/projects/<id:project_id>/results/<id:dataset_id>/configs/<id:config_id>/items/": {"GET": "viewer"},
    # -- API: learner corpora -------------------------------------------------------------------
    "api/projects/<id:project_id>/learner/corpora/": {"GET": "viewer"},
    "api/projects/<id:project_id>/learner/corpora/<id:corpus_id>/": {"GET": "viewer"},
    "api/projects/<id:project_id>/learner/corpora/<id:corpus_id>/runs/": {
        "GET": "viewer",
        "POST": "editor",
    },
    "api/projects/<id:project_id>/learner/runs/<id:run_id>/": {"GET": "viewer"},
    "api/projects/<id:project_id>/learner/runs/<id:run_id>/triplets/": {"GET": "viewer"},
    # -- API: studies ---------------------------------------------------------------------------
    "api/projects/<id:project_id>/studies/": {"GET": "viewer", "POST": "editor"},
    "api/projects/<id:project_id>/studies/<id:study_id>/": {"GET": "viewer", "PATCH": "editor"},
    "api/projects/<id:project_id>/studies/<id:study_id>/open/": {"POST": "editor"},
    "api/projects/<id:project_id>/studies/<id:study_id>/preview/": {"GET": "viewer"},
    "api/projects/<id:project_id>/studies/<id:study_id>/prolific/": {"POST": "viewer"},
    "api/projects/<id:project_id>/studies/<id:study_id>/close/": {"POST": "editor"},
    "api/projects/<id:project_id>/studies/<id:study_id>/analysis/": {"GET": "viewer"},
    "api/projects/<id:project_id>/studies/<id:study_id>/analysis/rules/": {"GET": "viewer", "PUT": "editor"},
    "api/projects/<id:project_id>/studies/<id:study_id>/analysis/export/<str:what>/": {"GET": "viewer"},
    # Nobody has answered the world's study: there is nothing to publish yet (409).
    "api/projects/<id:project_id>/studies/<id:study_id>/analysis/publish/": {
        "POST": "editor",
        "ok": {"POST": {409}},
    },
    "api/projects/<id:project_id>/studies/<id:study_id>/analysis/revalidate/": {"POST": "editor"},
    "api/": {"GET": "public"},
    "api/schema/": {"GET": "public"},
    "api/docs/": {"GET": "public"},
    # -- Health, sign-in, passwords -------------------------------------------------------------
    "healthz": {"GET": "public"},
    "accounts/login/": {"GET": "public", "POST": "public"},
    "accounts/logout/": {"POST": "public", "ok": {"POST": {302}}},
    "accounts/password_change/": {"GET": "user", "POST": "user"},
    "accounts/password_change/done/": {"GET": "user"},
    # No EMAIL_URL in the tests: the reset address explains itself (404), no other reset page.
    "accounts/password_reset/": {"GET": "public", "POST": "public", "ok": {"GET": {404}, "POST": {404}}},
}
# Django's admin: every page is for staff only (the sign-in page and its assets are public).
ADMIN_PREFIX = "admin/"
ADMIN_PUBLIC = {"admin/login/": {200}, "admin/logout/": {302}}
# Requests that end the session are sent from a client of their own.
SIGNS_OUT = ("accounts/logout/", "admin/logout/")
# URL arguments that differ by the app that owns the route (the learner run is not a scoring run).
ARGUMENT_BY_PREFIX = {
    "projects/<id:project_id>/vocabularies/imports/": {"import_id": "vocabulary_import_id"},
    "api/projects/<id:project_id>/vocabularies/imports/": {"import_id": "vocabulary_import_id"},
    "projects/<id:project_id>/templates/import/zhoblimp/": {"import_id": "zhoblimp_import_id"},
    "api/projects/<id:project_id>/templates/import/zhoblimp/": {"import_id": "zhoblimp_import_id"},
    "projects/<id:project_id>/templates/import/library/": {"import_id": "library_import_id"},
    "api/projects/<id:project_id>/templates/import/library/": {"import_id": "library_import_id"},
    "projects/<id:project_id>/learner/": {"run_id": "learner_run_id", "job_id": "learner_job_id"},
    "api/projects/<id:project_id>/learner/": {"run_id": "learner_run_id"},
    "projects/<id:project_id>/scoring/jobs/": {"job_id": "scoring_job_id"},
    "paradigms/": {"template_id": "library_template_id"},
    "api/library/": {"template_id": "library_template_id"},
    "invitations/": {"token": "invitation_token"},
    "api/invitations/": {"token": "invitation_token"},
}
QUERY = {
    "projects/<id:project_id>/datasets/<id:dataset_id>/export/": "?format=csv",
    "api/projects/<id:project_id>/datasets/<id:dataset_id>/export/": "?format=csv",
    "projects/<id:project_id>/learner/runs/<id:run_id>/export/": "?format=jsonl",
    "projects/<id:project_id>/scoring/results/<id:dataset_id>/export/": "?what=metrics&format=csv",
}


@dataclass(frozen=True)
class Route:
    """One URL pattern: its full route text and the view it calls."""

    route: str
    callback: Any


def url_routes(patterns: list[Any] | None = None, prefix: str = "") -> Iterator[Route]:
    """Yield every URL pattern of the project, includes walked recursively."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from url_routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield Route(prefix + str(pattern.pattern), pattern.callback)


def is_api(route: str) -> bool:
    """Return whether the route is a REST endpoint (token auth, 401 for visitors)."""
    return route.startswith("api/") and route not in ("api/", "api/schema/", "api/docs/")


def expected(rule: str, role: str, method: str, ok: set[int], api: bool) -> set[int]:
    """Return the statuses a role may get for a method whose rule is `rule`."""
    visitor = role in VISITORS
    if rule == "public":
        return ok
    if rule == "visitor":
        return ok if visitor else {302}
    if rule == "participant":
        return ok if role == "participant" else {403}
    if rule == "staff":
        return {302}
    if visitor:
        return {401} if api else {302}
    if rule == "user":
        return ok
    if role == "outsider":
        return {404}
    if rule == "self":  # the owner, or the member the URL names (the viewer)
        return ok if role in ("owner", "viewer") else {403}
    return ok if RANK[role] >= RANK[rule] else {403}


def argument_value(route: str, name: str, world: World, role: str) -> str:
    """Return the value of URL argument `name` of `route` from the world."""
    key = name
    for prefix, renames in ARGUMENT_BY_PREFIX.items():
        if route.startswith(prefix):
            key = renames.get(name, key)
    if route.startswith("s/") and name == "token":
        # Only the participant holds the token; anyone else tries a forged one.
        return world.participant_token if role == "participant" else world.participant_token[:-4] + "AAAA"
    if route.startswith(ADMIN_PREFIX):
        return ADMIN_ARGUMENTS.get(name, "1")
    return str(world.args[key])


ADMIN_ARGUMENTS = {"app_label": "auth", "content_type_id": "1", "object_id": "1", "url": "x"}


def build_url(route: str, world: World, role: str) -> str:
    """Return the path of `route` with its arguments filled from the world."""
    if route.startswith("^") or "(?P<" in route:  # the admin's regular-expression routes
        path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: argument_value(route, m.group(1), world, role), route)
        path = path.replace("^", "").replace("$", "").replace("\\", "")
    else:
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: argument_value(route, m.group(1), world, role), route)
    return "/" + path + QUERY.get(route, "")


def rules_of(route: Route) -> dict[str, str]:
    """Return method -> rule for a route: its MATRIX row, or the admin's blanket rule."""
    if route.route.startswith(ADMIN_PREFIX):
        return {"GET": "public" if route.route in ADMIN_PUBLIC else "staff"}
    return {m: r for m, r in MATRIX[route.route].items() if m != "ok"}


def api_methods(route: Route) -> set[str] | None:
    """Return the methods a DRF view class implements (None for a function view)."""
    view_class = getattr(route.callback, "cls", None) or getattr(route.callback, "view_class", None)
    if view_class is None or not is_api(route.route):
        return None
    return {m.upper() for m in ("get", "post", "put", "patch", "delete") if hasattr(view_class, m)}


def test_every_url_pattern_is_declared() -> None:
    """Each URL pattern has a row (admin aside), each row a pattern, each API row every method
    its view implements: a new page, endpoint or method fails here until it is declared."""
    routes = list(url_routes())
    declared = set(MATRIX)
    enumerated = {r.route for r in routes if not r.route.startswith(ADMIN_PREFIX)}
    assert sorted(enumerated - declared) == [], "URL patterns with no row in MATRIX"
    assert sorted(declared - enumerated) == [], "MATRIX rows with no URL pattern"
    for route in routes:
        methods = api_methods(route)
        if methods is not None:
            assert set(rules_of(route)) == methods, route.route
    assert len(routes) > 150  # the walk reached into every include


def client_for(role: str, api: bool, people: dict[str, Any]) -> Client:
    """Return a client for the role: an API token for API routes, a session for pages."""
    from rest_framework.authtoken.models import Token

    if role in ("anonymous", "participant"):
        return Client(raise_request_exception=False)
    user = people[role]
    if api:
        key = Token.objects.get_or_create(user=user)[0].key
        return Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {key}")
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def send(client: Client, method: str, url: str, api: bool) -> Any:
    """Send an empty request (form, upload or JSON) inside a savepoint rolled back afterwards."""
    savepoint = transaction.atomic()
    # Marked as the test case's own block, as Django's TestCase does, so the services' durable
    # atomic blocks may open inside it.
    savepoint._from_testcase = True  # type: ignore[attr-defined]
    with savepoint:
        if method == "GET":
            response = client.get(url)
        elif api and (
            "/import/" in url or url.endswith(("/updates/", "/token-frequencies/"))
        ):  # uploads: an empty multipart form
            response = client.post(url, {})
        elif api:
            response = client.generic(method, url, "{}", content_type="application/json")
        else:
            response = client.generic(method, url, "", content_type="application/x-www-form-urlencoded")
        transaction.set_rollback(True)
    return response


@pytest.fixture
def world(project: Any, owner: Any, editor: Any, viewer: Any, other_project: Any, tmp_path: Path) -> World:
    return build_world(
        project=project, owner=owner, editor=editor, viewer=viewer, library_dir=tmp_path / "lib"
    )


@pytest.mark.parametrize("role", ROLES)
def test_authorization_matrix(role: str, world: World, request: pytest.FixtureRequest) -> None:
    """Every route x method answers `role` with the status its MATRIX row declares; visitors sent
    to sign in land on the sign-in page, and no request fails with a server error."""
    people = {r: request.getfixturevalue(r) for r in ("viewer", "editor", "owner", "outsider")}
    if role == "participant":
        people = {}
    clients = {api: client_for(role, api, people) for api in (False, True)}
    problems = []
    with mock.patch("celery.app.task.Task.apply_async"):
        for route in url_routes():
            row = MATRIX.get(route.route, {})
            api = is_api(route.route)
            url = build_url(route.route, world, role)
            for method, rule in rules_of(route).items():
                ok = (
                    row.get("ok", {}).get(method)
                    or ADMIN_PUBLIC.get(route.route)
                    or (API_OK if api else PAGE_OK)[method]
                )
                want = expected(rule, role, method, ok, api)
                client = client_for(role, api, people) if route.route in SIGNS_OUT else clients[api]
                response = send(client, method, url, api)
                got = response.status_code
                if got not in want:
                    where = f" -> {response['Location']}" if got == 302 else ""
                    problems.append(f"{method} {url} ({rule}): {got}{where}, expected {sorted(want)}")
                elif got == 302 and (rule == "staff" or (rule not in OPEN and role in VISITORS)):
                    login = "/admin/login/" if rule == "staff" else "/accounts/login/"
                    if not response["Location"].startswith(login):
                        problems.append(f"{method} {url}: redirected to {response['Location']}")
    assert problems == [], "\n".join(problems)


def test_options_and_ids_beyond_any_row_never_fail_on_any_route(
    world: World, owner: Any, request: pytest.FixtureRequest
) -> None:
    """OPTIONS on every route answers without a server error (DRF's default metadata raised on
    views without a queryset, the docs page had no template for it), and an id no 64-bit column
    holds is a 404 on every route that takes one (SQLite raised OverflowError)."""
    people = {r: request.getfixturevalue(r) for r in ("viewer", "editor", "owner", "outsider")}
    problems = []
    for route in url_routes():
        if route.route.startswith(ADMIN_PREFIX):
            continue
        api = is_api(route.route)
        client = client_for("owner", api, people)
        url = build_url(route.route, world, "owner")
        response = send(client, "OPTIONS", url, api)
        if response.status_code >= 500:
            problems.append(f"OPTIONS {url}: {response.status_code}")
        if "<id:" in route.route:
            huge = re.sub(r"<id:\w+>", str(2**63), route.route)
            response = send(client, "GET", "/" + re.sub(r"<(?:\w+:)?(\w+)>", "x", huge), api)
            if response.status_code != 404:
                problems.append(f"GET {huge}: {response.status_code}, expected 404")
    assert problems == []
