"""GET /healthz reports whether the database answers, without a login."""

from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client


@pytest.mark.django_db
def test_healthz_reports_database_ok_without_login(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "db": "ok"}


@pytest.mark.django_db
def test_healthz_returns_503_when_database_fails(client: Client) -> None:
    with mock.patch("mpp_studio.core.views.connection.cursor", side_effect=OperationalError("server gone")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "db": "error: server gone"}


def test_healthz_rejects_post(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
