"""The accounts pages: sign-up, dashboard, project settings and deletion, members, invitations, token."""

import re
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token

from mpp_studio.accounts.models import Invitation, Membership, Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.services import invitation_accept, invitation_revoke
from mpp_studio.lexicon.models import Vocabulary

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "violet-tundra-cello-42"


def text(response: object) -> str:
    return response.content.decode()


def messages_of(response: object) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# -- Sign-up, sign-in, header ---------------------------------------------------------------------


def test_signup_creates_the_account_and_signs_in(client: Client) -> None:
    response = client.post(
        "/signup/",
        {
            "username": "wen",
            "email": "wen@example.org",
            "password1": GOOD_PASSWORD,
            "password2": GOOD_PASSWORD,
        },
        follow=True,
    )
    assert response.redirect_chain == [("/", 302)]
    assert response.context["user"].username == "wen"
    assert "Welcome, wen" in text(response)


def test_signup_returns_to_next(client: Client, invitation: Invitation) -> None:
    here = f"/invitations/{invitation.token}/"
    form = client.get(f"/signup/?next={here}")
    assert f'name="next" value="{here}"' in text(form)
    response = client.post(
        "/signup/",
        {
            "username": "wen",
            "email": "w@example.org",
            "password1": GOOD_PASSWORD,
            "password2": GOOD_PASSWORD,
            "next": here,
        },
    )
    assert response["Location"] == here


def test_signup_ignores_a_next_on_another_site(client: Client) -> None:
    response = client.post(
        "/signup/",
        {
            "username": "wen",
            "email": "w@example.org",
            "password1": GOOD_PASSWORD,
            "password2": GOOD_PASSWORD,
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == "/"


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"password1": "12345678", "password2": "12345678"}, "Password", "too common"),
        ({"password1": "short", "password2": "short"}, "Password", "too short"),
        ({"password2": "something-else-entirely"}, "Password again", "didn’t match"),
        ({"email": "not-an-address"}, "E-mail address", "valid email"),
        ({"username": "vic"}, "User name", "already exists"),
        ({"email": "taken@example.org"}, "E-mail address", "already exists"),
    ],
)
def test_signup_errors_name_the_field_and_save_nothing(
    client: Client, viewer: object, data: dict[str, str], field: str, message: str
) -> None:
    get_user_model().objects.filter(pk=viewer.pk).update(email="taken@example.org")
    before = get_user_model().objects.count()
    form = {
        "username": "wen",
        "email": "wen@example.org",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
    }
    response = client.post("/signup/", {**form, **data})
    assert response.status_code == 400
    errors = re.findall(r'<p class="error field-error"[^>]*>(.*?)</p>', text(response))
    assert any(e.startswith(f"{field}:") and message in e for e in errors), errors
    assert get_user_model().objects.count() == before
    assert "_auth_user_id" not in client.session


def test_login_page_links_to_signup_keeping_next(client: Client) -> None:
    page = text(client.get("/accounts/login/?next=/invitations/abc/"))
    assert 'href="/signup/?next=/invitations/abc/"' in page


def test_header_links_projects_library_and_api_docs(client_as: Callable[[str], Client]) -> None:
    page = text(client_as("viewer").get("/"))
    for href in ('href="/"', 'href="/library/"', 'href="/api/docs/"', 'href="/account/token/"'):
        assert href in page


def test_library_moved_to_library_url(client_as: Callable[[str], Client]) -> None:
    response = client_as("viewer").get("/library/")
    assert response.status_code == 200
    assert "<h1>Paradigm library</h1>" in text(response)


# -- Dashboard ------------------------------------------------------------------------------------


def test_dashboard_lists_projects_with_role_and_counts(
    client_as: Callable[[str], Client], project: Project
) -> None:
    Vocabulary.objects.create(project=project, name="nouns")
    Vocabulary.objects.create(project=project, name="verbs")
    response = client_as("editor").get("/")
    (row,) = response.context["projects"]
    assert (row.name, row.role, row.vocabulary_count, row.template_count, row.dataset_count) == (
        "Agreement study",
        "editor",
        2,
        0,
        0,
    )
    assert 'class="badge role-badge role-editor"' in text(response)
    assert "New project" in text(response)


def test_dashboard_shows_owners_their_open_invitation_links(
    client_as: Callable[[str], Client], invitation: Invitation
) -> None:
    owner_page = text(client_as("owner").get("/"))
    assert f"http://testserver/invitations/{invitation.token}/" in owner_page
    assert "for Wen" in owner_page
    assert invitation.token not in text(client_as("editor").get("/"))


def test_dashboard_without_projects_invites_to_create_one(
    client: Client, make_user: Callable[..., object]
) -> None:
    client.force_login(make_user("newbie"))
    page = text(client.get("/"))
    assert "No projects yet" in page and "Create your first project" in page


# -- Projects -------------------------------------------------------------------------------------


def test_project_new_makes_the_creator_owner(client_as: Callable[[str], Client], viewer: object) -> None:
    response = client_as("viewer").post(
        "/projects/new/", {"name": "量词研究", "description": "Chinese classifiers"}
    )
    project = Project.objects.get(name="量词研究")
    assert Membership.objects.get(project=project, user=viewer).role == Role.OWNER
    assert response.status_code == 302
    assert response["Location"] in {
        f"/projects/{project.pk}/members/",
        f"/projects/{project.pk}/vocabularies/",
    }


def test_project_new_names_the_missing_name(client_as: Callable[[str], Client]) -> None:
    response = client_as("viewer").post("/projects/new/", {"name": "", "description": "x"})
    assert response.status_code == 400
    assert "Name: This field is required." in text(response)
    assert Project.objects.count() == 2


def test_project_settings_renames(client_as: Callable[[str], Client], project: Project) -> None:
    client = client_as("owner")
    response = client.post(f"/projects/{project.pk}/settings/", {"name": "Agreement 2", "description": "new"})
    assert response.status_code == 302
    project.refresh_from_db()
    assert (project.name, project.description) == ("Agreement 2", "new")
    page = text(client.get(f"/projects/{project.pk}/settings/"))
    assert 'value="Agreement 2"' in page and "Project settings saved." in page


def test_project_settings_names_the_bad_field(client_as: Callable[[str], Client], project: Project) -> None:
    response = client_as("owner").post(f"/projects/{project.pk}/settings/", {"name": "x" * 201})
    assert response.status_code == 400
    assert "Name: Ensure this value has at most 200 characters" in text(response)
    project.refresh_from_db()
    assert project.name == "Agreement study"


def test_project_delete_page_names_what_will_be_deleted(
    client_as: Callable[[str], Client], project: Project
) -> None:
    Vocabulary.objects.create(project=project, name="nouns")
    page = text(client_as("owner").get(f"/projects/{project.pk}/delete/"))
    assert "Delete “Agreement study”?" in page
    assert re.search(r"<strong>1</strong> vocabulary with", page)
    assert re.search(r"<strong>0</strong> datasets with their pairs", page)
    assert re.search(r"<strong>3</strong> members", page)


@pytest.mark.parametrize("typed", ["", "agreement study", "Agreement"])
def test_project_delete_needs_the_name_typed_exactly(
    client_as: Callable[[str], Client], project: Project, typed: str
) -> None:
    response = client_as("owner").post(f"/projects/{project.pk}/delete/", {"confirm_name": typed})
    assert response.status_code == 400
    assert "Type the project’s name to confirm:" in text(response)
    assert Project.objects.filter(pk=project.pk).exists()


def test_project_delete_deletes_after_confirmation(
    client_as: Callable[[str], Client], project: Project
) -> None:
    response = client_as("owner").post(
        f"/projects/{project.pk}/delete/", {"confirm_name": "Agreement study"}, follow=True
    )
    assert response.redirect_chain == [("/", 302)]
    assert "Project “Agreement study” and everything in it were deleted." in text(response)
    assert not Project.objects.filter(pk=project.pk).exists()


def test_project_address_opens_its_first_tab(client_as: Callable[[str], Client], project: Project) -> None:
    response = client_as("viewer").get(f"/projects/{project.pk}/")
    assert response.status_code == 302
    assert response["Location"].startswith(f"/projects/{project.pk}/")


# -- Project header -------------------------------------------------------------------------------


def test_project_header_shows_name_role_and_current_tab(
    client_as: Callable[[str], Client], project: Project
) -> None:
    page = text(client_as("editor").get(f"/projects/{project.pk}/members/"))
    assert '<h1 class="project-name">Agreement study</h1>' in page
    assert "role-badge role-editor" in page
    assert re.search(r'class="project-tab active" data-tab="members"', page)
    assert 'data-tab="settings"' not in page  # only owners see the settings tab


def test_project_header_shows_settings_tab_to_owners(
    client_as: Callable[[str], Client], project: Project
) -> None:
    page = text(client_as("owner").get(f"/projects/{project.pk}/settings/"))
    assert re.search(r'class="project-tab active" data-tab="settings"', page)


# -- Members --------------------------------------------------------------------------------------


def test_members_page_lists_members_owner_first(client_as: Callable[[str], Client], project: Project) -> None:
    page = text(client_as("viewer").get(f"/projects/{project.pk}/members/"))
    assert re.findall(r'data-username="(\w+)"', page) == ["olga", "ed", "vic"]
    assert "Invite someone" not in page and "Change</button>" not in page


def test_members_page_gives_owners_role_forms_and_invitations(
    client_as: Callable[[str], Client], project: Project, invitation: Invitation
) -> None:
    page = text(client_as("owner").get(f"/projects/{project.pk}/members/"))
    assert page.count("Change</button>") == 2  # not on the only owner's row
    assert "The only owner" in page
    assert "Invite someone" in page
    assert f"/invitations/{invitation.token}/" in page


def test_member_role_change(client_as: Callable[[str], Client], project: Project, viewer: object) -> None:
    response = client_as("owner").post(
        f"/projects/{project.pk}/members/{viewer.pk}/role/",
        {"role": "editor"},
        follow=True,
    )
    assert "vic is now editor." in messages_of(response)
    assert Membership.objects.get(project=project, user=viewer).role == Role.EDITOR


def test_member_role_change_refuses_to_demote_the_only_owner(
    client_as: Callable[[str], Client], project: Project, owner: object
) -> None:
    response = client_as("owner").post(
        f"/projects/{project.pk}/members/{owner.pk}/role/",
        {"role": "viewer"},
        follow=True,
    )
    (message,) = messages_of(response)
    assert "olga is the project's only owner and cannot be demoted" in message
    assert Membership.objects.get(project=project, user=owner).role == Role.OWNER


def test_member_role_change_names_a_bad_role(
    client_as: Callable[[str], Client], project: Project, viewer: object
) -> None:
    response = client_as("owner").post(
        f"/projects/{project.pk}/members/{viewer.pk}/role/",
        {"role": "admin"},
        follow=True,
    )
    assert messages_of(response) == ["Role of vic: choose viewer, editor or owner."]


def test_member_remove(client_as: Callable[[str], Client], project: Project, viewer: object) -> None:
    response = client_as("owner").post(f"/projects/{project.pk}/members/{viewer.pk}/remove/", follow=True)
    assert "vic was removed from “Agreement study”." in messages_of(response)
    assert not Membership.objects.filter(project=project, user=viewer).exists()


def test_member_remove_refuses_the_only_owner(
    client_as: Callable[[str], Client], project: Project, owner: object
) -> None:
    response = client_as("owner").post(f"/projects/{project.pk}/members/{owner.pk}/remove/", follow=True)
    assert "only owner and cannot be removed" in messages_of(response)[0]
    assert Membership.objects.filter(project=project, user=owner).exists()


def test_member_remove_of_a_non_member_is_404(
    client_as: Callable[[str], Client], project: Project, outsider: object
) -> None:
    response = client_as("owner").post(f"/projects/{project.pk}/members/{outsider.pk}/remove/")
    assert response.status_code == 404


def test_member_leaves(client_as: Callable[[str], Client], project: Project, editor: object) -> None:
    response = client_as("editor").post(f"/projects/{project.pk}/leave/", follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert "You left “Agreement study”." in messages_of(response)
    assert not Membership.objects.filter(project=project, user=editor).exists()


def test_only_owner_cannot_leave(client_as: Callable[[str], Client], project: Project, owner: object) -> None:
    client = client_as("owner")
    assert "so you cannot leave this project" in text(client.get(f"/projects/{project.pk}/members/"))
    response = client.post(f"/projects/{project.pk}/leave/", follow=True)
    assert "You are the only owner of this project, so you cannot leave it." in messages_of(response)[0]
    assert Membership.objects.filter(project=project, user=owner).exists()


# -- Invitations ----------------------------------------------------------------------------------


def test_invitation_new_and_revoke(client_as: Callable[[str], Client], project: Project) -> None:
    client = client_as("owner")
    response = client.post(
        f"/projects/{project.pk}/invitations/", {"role": "editor", "note": "for Li"}, follow=True
    )
    invitation = Invitation.objects.get(project=project)
    assert (invitation.role, invitation.note) == ("editor", "for Li")
    assert f"http://testserver/invitations/{invitation.token}/" in text(response)
    client.post(f"/projects/{project.pk}/invitations/{invitation.pk}/revoke/")
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    assert invitation.token not in text(client.get(f"/projects/{project.pk}/members/"))


def test_invitation_new_names_the_bad_field(client_as: Callable[[str], Client], project: Project) -> None:
    response = client_as("owner").post(f"/projects/{project.pk}/invitations/", {"role": "boss", "note": ""})
    assert response.status_code == 400
    assert "Role: Select a valid choice. boss is not one of the available choices." in text(response)
    assert not Invitation.objects.exists()


def test_invitation_revoke_of_another_projects_invitation_is_404(
    client_as: Callable[[str], Client], project: Project, other_project: Project, outsider: object
) -> None:
    from mpp_studio.accounts.services import invitation_create

    theirs = invitation_create(project=other_project, role="viewer", created_by=outsider)
    response = client_as("owner").post(f"/projects/{project.pk}/invitations/{theirs.pk}/revoke/")
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.is_open


def test_invitation_page_for_anonymous_offers_sign_in_and_sign_up(
    client: Client, project: Project, invitation: Invitation
) -> None:
    page = text(client.get(f"/invitations/{invitation.token}/"))
    here = f"/invitations/{invitation.token}/"
    assert "You are invited to join" in page and "Agreement study" in page and "Editor" in page
    assert f'href="/accounts/login/?next={here}"' in page
    assert f'href="/signup/?next={here}"' in page


def test_invitation_accept_joins_the_project(
    client_as: Callable[[str], Client], project: Project, invitation: Invitation, outsider: object
) -> None:
    client = client_as("outsider")
    assert "Accept and join as editor" in text(client.get(f"/invitations/{invitation.token}/"))
    response = client.post(f"/invitations/{invitation.token}/", follow=True)
    assert "You joined “Agreement study” as editor." in messages_of(response)
    assert Membership.objects.get(project=project, user=outsider).role == Role.EDITOR
    invitation.refresh_from_db()
    assert invitation.accepted_by == outsider
    again = client.get(f"/invitations/{invitation.token}/")
    assert again.status_code == 200 and "You have joined “Agreement study”" in text(again)


def test_invitation_accept_upgrades_a_viewer(
    client_as: Callable[[str], Client], project: Project, invitation: Invitation, viewer: object
) -> None:
    client = client_as("viewer")
    assert "accepting makes you editor" in text(client.get(f"/invitations/{invitation.token}/"))
    client.post(f"/invitations/{invitation.token}/")
    assert Membership.objects.get(project=project, user=viewer).role == Role.EDITOR


def test_invitation_for_a_lower_role_changes_nothing(
    client_as: Callable[[str], Client], project: Project, invitation: Invitation, owner: object
) -> None:
    client = client_as("owner")
    assert "this link would change nothing" in text(client.get(f"/invitations/{invitation.token}/"))
    response = client.post(f"/invitations/{invitation.token}/", follow=True)
    assert "You are already owner in “Agreement study”" in messages_of(response)[0]
    assert Membership.objects.get(project=project, user=owner).role == Role.OWNER
    invitation.refresh_from_db()
    assert invitation.is_open


def test_used_invitation_says_so(
    client_as: Callable[[str], Client],
    project: Project,
    invitation: Invitation,
    outsider: object,
    make_user: Callable[..., object],
) -> None:
    invitation_accept(invitation=invitation, user=outsider)
    late = Client()
    late.force_login(make_user("late"))
    page = late.get(f"/invitations/{invitation.token}/")
    assert page.status_code == 410
    assert "This invitation has already been used" in text(page) and "Accept" not in text(page)
    response = late.post(f"/invitations/{invitation.token}/", follow=True)
    assert "already been used" in messages_of(response)[0]
    assert not Membership.objects.filter(project=project, user__username="late").exists()


def test_revoked_invitation_says_so(
    client_as: Callable[[str], Client], project: Project, invitation: Invitation, outsider: object
) -> None:
    invitation_revoke(invitation=invitation)
    client = client_as("outsider")
    page = client.get(f"/invitations/{invitation.token}/")
    assert page.status_code == 410 and "This invitation was revoked" in text(page)
    response = client.post(f"/invitations/{invitation.token}/", follow=True)
    assert "revoked" in messages_of(response)[0]
    assert not Membership.objects.filter(project=project, user=outsider).exists()


# -- API token ------------------------------------------------------------------------------------


def test_token_page_creates_shows_and_regenerates(client_as: Callable[[str], Client], editor: object) -> None:
    client = client_as("editor")
    assert "You have no token yet." in text(client.get("/account/token/"))
    client.post("/account/token/", {"action": "create"})
    first = Token.objects.get(user=editor).key
    page = text(client.get("/account/token/"))
    assert f'curl -H "Authorization: Token {first}" http://testserver/api/projects/' in page
    client.post("/account/token/", {"action": "regenerate"})
    assert Token.objects.get(user=editor).key != first
