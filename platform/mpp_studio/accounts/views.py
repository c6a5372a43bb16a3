"""Pages of the accounts app: sign-up, dashboard, projects, members, invitations, API token."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.http import require_http_methods, require_POST

from mpp_studio.accounts.forms import DeleteConfirmForm, InvitationForm, ProjectForm, RoleForm, SignupForm
from mpp_studio.accounts.models import Project
from mpp_studio.accounts.page_context import project_context
from mpp_studio.accounts.roles import Role, role_allows
from mpp_studio.accounts.selectors import (
    invitation_get,
    invitation_get_by_token,
    invitation_list_open,
    invitation_list_open_for_owner,
    membership_get,
    membership_list,
    owner_count,
    project_contents_count,
    project_get_for_user,
    project_list_with_counts_for_user,
    role_of,
    token_get,
)
from mpp_studio.accounts.services import (
    invitation_accept,
    invitation_create,
    invitation_revoke,
    membership_remove,
    membership_role_change,
    project_create,
    project_delete,
    project_update,
    token_get_or_create,
    token_regenerate,
    user_signup,
)
from mpp_studio.accounts.users import signed_in_user


def project_landing_url(project: Project) -> str:
    """Return the URL of a project's first tab: its vocabularies, or its members if that page
    is not there."""
    try:
        return reverse("lexicon:vocabulary_list", args=[project.pk])
    except NoReverseMatch:
        return reverse("accounts:members", args=[project.pk])


def _errors_text(error: ValidationError) -> str:
    return " ".join(error.messages)


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


# -- Sign-up and dashboard ----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and sign in; then go to `next` (e.g. an invitation) or the dashboard."""
    if request.user.is_authenticated:
        return redirect(_safe_next(request) or "home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = user_signup(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
        )
        login(request, user, backend="mpp_studio.accounts.lockout.LockoutBackend")
        messages.success(request, f"Welcome, {user.get_username()}! Your account is ready.")
        return redirect(_safe_next(request) or "home")
    status = 400 if request.method == "POST" else 200
    return render(
        request, "accounts/signup.html", {"form": form, "next": _safe_next(request) or ""}, status=status
    )


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The signed-in user's projects with their role and what each holds, and open invitations."""
    user = signed_in_user(request)
    projects = list(project_list_with_counts_for_user(user=user))
    invitations = [
        (invitation, request.build_absolute_uri(reverse("accounts:invitation", args=[invitation.token])))
        for invitation in invitation_list_open_for_owner(user=user)
    ]
    for project in projects:
        project.landing_url = project_landing_url(project)  # type: ignore[attr-defined]  # for the template
    return render(request, "accounts/dashboard.html", {"projects": projects, "invitations": invitations})


# -- Projects -----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def project_new(request: HttpRequest) -> HttpResponse:
    """Create a project; its creator becomes its owner."""
    form = ProjectForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            project = project_create(created_by=signed_in_user(request), **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"Project “{project.name}” created. You are its owner.")
            return redirect(project_landing_url(project))
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/project_new.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET"])
def project_open(request: HttpRequest, project_id: int) -> HttpResponse:
    """A project's address: goes to its first tab."""
    project = project_get_for_user(user=request.user, project_id=project_id)
    return redirect(project_landing_url(project))


@login_required
@require_http_methods(["GET", "POST"])
def project_settings(request: HttpRequest, project_id: int) -> HttpResponse:
    """The project's name and description (owners)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.OWNER)
    form = ProjectForm(
        request.POST or None, initial={"name": project.name, "description": project.description}
    )
    if request.method == "POST" and form.is_valid():
        try:
            project_update(project=project, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Project settings saved.")
            return redirect("accounts:project_settings", project.pk)
    status = 400 if request.method == "POST" else 200
    context = project_context(request, project, active_tab="settings", form=form)
    return render(request, "accounts/project_settings.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def project_remove(request: HttpRequest, project_id: int) -> HttpResponse:
    """Confirm and delete the project (owners): the page names what will be deleted, and only
    the confirming POST, with the project's name typed out, deletes it."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.OWNER)
    form = DeleteConfirmForm(request.POST or None, project=project)
    if request.method == "POST" and form.is_valid():
        name = project.name
        project_delete(project=project)
        messages.success(request, f"Project “{name}” and everything in it were deleted.")
        return redirect("home")
    status = 400 if request.method == "POST" else 200
    context = project_context(
        request, project, active_tab="settings", form=form, contents=project_contents_count(project=project)
    )
    return render(request, "accounts/project_delete.html", context, status=status)


# -- Members and invitations --------------------------------------------------------------------


def _members_page(
    request: HttpRequest, project: Project, invitation_form: InvitationForm | None = None, status: int = 200
) -> HttpResponse:
    role = role_of(user=request.user, project=project)
    is_owner = role == Role.OWNER
    invitations = (
        [
            (invitation, request.build_absolute_uri(reverse("accounts:invitation", args=[invitation.token])))
            for invitation in invitation_list_open(project=project)
        ]
        if is_owner
        else []
    )
    context = project_context(
        request,
        project,
        active_tab="members",
        memberships=membership_list(project=project),
        is_owner=is_owner,
        owner_count=owner_count(project=project),
        roles=Role.choices,
        invitations=invitations,
        invitation_form=invitation_form or InvitationForm(initial={"role": Role.VIEWER}),
    )
    return render(request, "accounts/members.html", context, status=status)


@login_required
@require_http_methods(["GET"])
def members(request: HttpRequest, project_id: int) -> HttpResponse:
    """The project's members and roles; owners also change roles, remove members and invite."""
    project = project_get_for_user(user=request.user, project_id=project_id)
    return _members_page(request, project)


@login_required
@require_POST
def member_role(request: HttpRequest, project_id: int, user_id: int) -> HttpResponse:
    """Give a member another role (owners); the only owner cannot be demoted."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.OWNER)
    membership = membership_get(project=project, user_id=user_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Role of {membership.user}: choose viewer, editor or owner.")
    else:
        try:
            membership_role_change(membership=membership, role=form.cleaned_data["role"])
        except ValidationError as error:
            messages.error(request, _errors_text(error))
        else:
            messages.success(request, f"{membership.user} is now {membership.get_role_display().lower()}.")
    return redirect("accounts:members", project.pk)


@login_required
@require_POST
def member_remove(request: HttpRequest, project_id: int, user_id: int) -> HttpResponse:
    """Remove a member (owners); the only owner cannot be removed."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.OWNER)
    membership = membership_get(project=project, user_id=user_id)
    try:
        membership_remove(membership=membership)
    except ValidationError as error:
        messages.error(request, _errors_text(error))
        return redirect("accounts:members", project.pk)
    messages.success(request, f"{membership.user} was removed from “{project.name}”.")
    if membership.user_id == request.user.pk:
        return redirect("home")
    return redirect("accounts:members", project.pk)


@login_required
@require_POST
def project_leave(request: HttpRequest, project_id: int) -> HttpResponse:
    """Leave the project (any member except its only owner)."""
    project = project_get_for_user(user=request.user, project_id=project_id)
    membership = membership_get(project=project, user_id=signed_in_user(request).pk)
    try:
        membership_remove(membership=membership)
    except ValidationError:
        messages.error(
            request,
            "You are the only owner of this project, so you cannot leave it. Make another member "
            "an owner first, or delete the project in its settings.",
        )
        return redirect("accounts:members", project.pk)
    messages.success(request, f"You left “{project.name}”.")
    return redirect("home")


@login_required
@require_POST
def invitation_new(request: HttpRequest, project_id: int) -> HttpResponse:
    """Create an invitation link for a role (owners)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.OWNER)
    form = InvitationForm(request.POST)
    if form.is_valid():
        try:
            invitation = invitation_create(
                project=project, created_by=signed_in_user(request), **form.cleaned_data
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                f"Invitation link for a new {invitation.get_role_display().lower()} created; "
                "copy it from the list below and send it to them.",
            )
            return redirect("accounts:members", project.pk)
    return _members_page(request, project, invitation_form=form, status=400)


@login_required
@require_POST
def invitation_cancel(request: HttpRequest, project_id: int, invitation_id: int) -> HttpResponse:
    """Revoke an open invitation (owners): its link stops working."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.OWNER)
    invitation = invitation_get(project=project, invitation_id=invitation_id)
    try:
        invitation_revoke(invitation=invitation)
    except ValidationError as error:
        messages.error(request, _errors_text(error))
    else:
        messages.success(request, "Invitation revoked; its link no longer works.")
    return redirect("accounts:members", project.pk)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation link: shows the project and role, and accepts it for a signed-in user.

    Anyone with the link sees what it invites to; accepting needs an account, and signing in or
    signing up from here comes back here.
    """
    invite = invitation_get_by_token(token=token)
    here = reverse("accounts:invitation", args=[token])
    current_role = role_of(user=request.user, project=invite.project)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return HttpResponseRedirect(f"{reverse('login')}?{urlencode({'next': here})}")
        try:
            membership, used = invitation_accept(invitation=invite, user=request.user)
        except ValidationError as error:
            messages.error(request, _errors_text(error))
            return redirect(here)
        if used:
            messages.success(
                request, f"You joined “{invite.project.name}” as {membership.get_role_display().lower()}."
            )
        else:
            messages.info(
                request,
                f"You are already {membership.get_role_display().lower()} in “{invite.project.name}”; "
                "the invitation was left open for the person it was meant for.",
            )
        return redirect(project_landing_url(invite.project))
    keeps_role = current_role is not None and role_allows(current_role, invite.role)
    context = {
        "invitation": invite,
        "here": here,
        "current_role": current_role,
        "keeps_role": keeps_role,
        "accepted_by_you": request.user.is_authenticated and invite.accepted_by_id == request.user.pk,
        "landing_url": project_landing_url(invite.project),
    }
    status = 200 if invite.is_open or context["accepted_by_you"] else 410
    return render(request, "accounts/invitation.html", context, status=status)


# -- API token ----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """The user's API token: shown, created or replaced by a new one."""
    if request.method == "POST":
        user = signed_in_user(request)
        if request.POST.get("action") == "regenerate":
            token_regenerate(user=user)
            messages.success(request, "A new token was made; the old one no longer works.")
        else:
            token_get_or_create(user=user)
            messages.success(request, "Your API token was created.")
        return redirect("accounts:token")
    token = token_get(user=request.user)
    api_url = request.build_absolute_uri(reverse("accounts_api:project_list"))
    return render(
        request,
        "accounts/token.html",
        {
            "token": token,
            "api_url": api_url,
            "obtain_url": request.build_absolute_uri(reverse("accounts_api:token")),
        },
    )
