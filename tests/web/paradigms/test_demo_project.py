"""`load_demo` gives the demo user a project with the shipped paradigms, ready to generate."""

import io

import pytest
from django.core.management import call_command

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role

pytestmark = pytest.mark.django_db


def test_load_demo_creates_demo_project_with_valid_shipped_paradigms() -> None:
    out = io.StringIO()
    call_command("load_demo", stdout=out, stderr=io.StringIO())
    project = Project.objects.get(name="Demo project")
    assert project.memberships.get().role == Role.OWNER
    assert project.memberships.get().user.username == "demo"
    templates = list(project.templates.all())
    assert len(templates) >= 6 and {t.language for t in templates} == {"en", "zh"}
    for template in templates:
        latest = template.latest_version()
        assert latest is not None and latest.problems == [], (template.uid, latest and latest.problems)
    assert "Created 'Demo project' for demo" in out.getvalue()

    again = io.StringIO()
    call_command("load_demo", stdout=again, stderr=io.StringIO())
    assert Project.objects.filter(name="Demo project").count() == 1
    assert "'Demo project' already exists" in again.getvalue()


def test_load_demo_without_demo_user_creates_no_project() -> None:
    call_command("load_demo", "--no-demo-user", stdout=io.StringIO(), stderr=io.StringIO())
    assert not Project.objects.exists()
