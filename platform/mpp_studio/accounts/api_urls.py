"""URLs of the accounts API (mounted at /api/): projects, members, invitations, tokens."""

from django.urls import path

from mpp_studio.accounts import apis
from mpp_studio.accounts.login_views import RateLimitedTokenView

app_name = "accounts_api"

urlpatterns = [
    path("token/", RateLimitedTokenView.as_view(), name="token"),
    path("projects/", apis.ProjectListApi.as_view(), name="project_list"),
    path("projects/<id:project_id>/", apis.ProjectDetailApi.as_view(), name="project_detail"),
    path("projects/<id:project_id>/members/", apis.MembershipListApi.as_view(), name="member_list"),
    path(
        "projects/<id:project_id>/members/<id:user_id>/",
        apis.MembershipDetailApi.as_view(),
        name="member_detail",
    ),
    path("projects/<id:project_id>/invitations/", apis.InvitationListApi.as_view(), name="invitation_list"),
    path(
        "projects/<id:project_id>/invitations/<id:invitation_id>/",
        apis.InvitationDetailApi.as_view(),
        name="invitation_detail",
    ),
    path("invitations/<str:token>/accept/", apis.InvitationAcceptApi.as_view(), name="invitation_accept"),
]
