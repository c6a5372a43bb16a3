"""Password reset is offered only where mail can leave the server (EMAIL_URL): without it the
reset address explains how to get a new password instead of claiming a mail was sent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

REPO_ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.django_db
def test_without_mail_the_reset_page_says_how_to_get_a_password(owner: object) -> None:
    client = Client()
    assert 'href="/accounts/password_reset/"' in client.get(reverse("login")).content.decode()
    for response in (
        client.get("/accounts/password_reset/"),
        client.post("/accounts/password_reset/", {"email": "olga@example.org"}),
    ):
        assert response.status_code == 404
        text = response.content.decode()
        assert "Password reset is not available here" in text and "changepassword" in text
        assert "sent" not in text.lower().replace("sends no e-mail", "")
    assert mail.outbox == []
    assert client.get("/accounts/password_reset/done/").status_code == 404


def test_with_email_url_the_reset_pages_and_the_mail_settings_come_from_the_environment() -> None:
    script = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        "from django.urls import resolve\n"
        "from django.contrib.auth.views import PasswordResetView\n"
        "assert resolve('/accounts/password_reset/').func.view_class is PasswordResetView\n"
        "assert resolve('/accounts/reset/done/').url_name == 'password_reset_complete'\n"
        "print(settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS, settings.EMAIL_HOST_USER)\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "mpp_studio.settings.test",
        "PYTHONPATH": f"{REPO_ROOT / 'platform'}{os.pathsep}{REPO_ROOT}",
        "EMAIL_URL": "smtp+tls://mailer:secret@mail.example.org:587",
    }
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["mail.example.org", "587", "True", "mailer"]
