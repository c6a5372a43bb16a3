"""Fixtures of the accounts tests: clients signed in as each persona, and invitations."""

from collections.abc import Callable

import pytest
from django.test import Client

PERSONAS = ("anonymous", "viewer", "editor", "owner", "outsider")


@pytest.fixture
def client_as(
    request: pytest.FixtureRequest, project: object, other_project: object
) -> Callable[[str], Client]:
    """Return a function giving a test client signed in as a persona (`anonymous`: not signed in).

    `project` and `other_project` exist whenever this fixture is used.
    """

    def client_for(persona: str) -> Client:
        client = Client()
        if persona != "anonymous":
            client.force_login(request.getfixturevalue(persona))
        return client

    return client_for


@pytest.fixture
def api_as(
    request: pytest.FixtureRequest,
    api_client_for: Callable[[object], object],
    project: object,
    other_project: object,
) -> Callable[[str], object]:
    """Return a function giving a DRF client with a persona's token (`anonymous`: no token)."""
    from rest_framework.test import APIClient

    def client_for(persona: str) -> object:
        if persona == "anonymous":
            return APIClient()
        return api_client_for(request.getfixturevalue(persona))

    return client_for


@pytest.fixture
def invitation(project: object, owner: object) -> object:
    """An open invitation to `project` for an editor."""
    from mpp_studio.accounts.services import invitation_create

    return invitation_create(project=project, role="editor", note="for Wen", created_by=owner)


@pytest.fixture
def second_viewer(make_user: Callable[..., object], project: object) -> object:
    """Another viewer of `project` (a member whom others may remove)."""
    from mpp_studio.accounts.models import Membership

    user = make_user("vera")
    Membership.objects.create(project=project, user=user, role="viewer")
    return user
