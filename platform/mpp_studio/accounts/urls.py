"""URLs of the accounts pages: sign-up, projects, members, invitations and the API token page."""

from django.urls import path

from mpp_studio.accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("account/token/", views.api_token, name="token"),
    path("projects/new/", views.project_new, name="project_new"),
    path("projects/<id:project_id>/", views.project_open, name="project"),
    path("projects/<id:project_id>/settings/", views.project_settings, name="project_settings"),
    path("projects/<id:project_id>/delete/", views.project_remove, name="project_delete"),
    path("projects/<id:project_id>/members/", views.members, name="members"),
    path("projects/<id:project_id>/members/<id:user_id>/role/", views.member_role, name="member_role"),
    path(
        "projects/<id:project_id>/members/<id:user_id>/remove/", views.member_remove, name="member_remove"
    ),
    path("projects/<id:project_id>/leave/", views.project_leave, name="project_leave"),
    path("projects/<id:project_id>/invitations/", views.invitation_new, name="invitation_new"),
    path(
        "projects/<id:project_id>/invitations/<id:invitation_id>/revoke/",
        views.invitation_cancel,
        name="invitation_revoke",
    ),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
]
