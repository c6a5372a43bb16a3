"""The accounts API: projects, their members and invitations, and accepting an invitation.

Permissions come from `ProjectRolePermission` (the default): under /api/projects/<project_id>/
reading needs the viewer role and writing the view's `write_role`; non-members get 404.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mpp_studio.accounts.models import Invitation, Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import (
    invitation_get,
    invitation_get_by_token,
    invitation_list_open,
    membership_get,
    membership_list,
    project_list_with_counts_for_user,
    role_of,
)
from mpp_studio.accounts.serializers import (
    InvitationAcceptOutputSerializer,
    InvitationInputSerializer,
    InvitationOutputSerializer,
    MembershipOutputSerializer,
    MembershipRoleInputSerializer,
    ProjectInputSerializer,
    ProjectOutputSerializer,
    ProjectUpdateInputSerializer,
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
)
from mpp_studio.accounts.users import signed_in_user

TAG = "Projects and members"


def _project_with_counts(request: Request, project: Project) -> Project:
    return project_list_with_counts_for_user(user=signed_in_user(request)).get(pk=project.pk)


def _with_url(request: Request, invitation: Invitation) -> Invitation:
    path = reverse("accounts:invitation", args=[invitation.token])
    invitation.url = request.build_absolute_uri(path)  # type: ignore[attr-defined]  # for the serializer
    return invitation


class ProjectListApi(GenericAPIView):
    """The projects you are a member of; creating one makes you its owner."""

    serializer_class = ProjectOutputSerializer

    def get_queryset(self) -> QuerySet[Project]:
        return project_list_with_counts_for_user(user=signed_in_user(self.request))

    @extend_schema(tags=[TAG], responses=ProjectOutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(ProjectOutputSerializer(page, many=True).data)

    @extend_schema(tags=[TAG], request=ProjectInputSerializer, responses={201: ProjectOutputSerializer})
    def post(self, request: Request) -> Response:
        data = ProjectInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        project = project_create(created_by=signed_in_user(request), **data.validated_data)
        return Response(
            ProjectOutputSerializer(_project_with_counts(request, project)).data,
            status=status.HTTP_201_CREATED,
        )


class ProjectDetailApi(APIView):
    """One project. Any member reads it; only owners rename or delete it."""

    write_role = Role.OWNER
    project: Project

    @extend_schema(tags=[TAG], responses=ProjectOutputSerializer)
    def get(self, request: Request, project_id: int) -> Response:
        return Response(ProjectOutputSerializer(_project_with_counts(request, self.project)).data)

    @extend_schema(tags=[TAG], request=ProjectUpdateInputSerializer, responses=ProjectOutputSerializer)
    def patch(self, request: Request, project_id: int) -> Response:
        data = ProjectUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        project = project_update(project=self.project, **data.validated_data)
        return Response(ProjectOutputSerializer(_project_with_counts(request, project)).data)

    @extend_schema(
        tags=[TAG],
        responses={204: OpenApiResponse(description="Deleted, with everything in it.")},
        description="Deletes the project and all its vocabularies, templates, phrases, datasets and jobs.",
    )
    def delete(self, request: Request, project_id: int) -> Response:
        project_delete(project=self.project)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MembershipListApi(GenericAPIView):
    """The project's members and roles. People join only through an invitation link they accept
    themselves (`invitations/`): nobody is added without consent, and no user name is revealed."""

    serializer_class = MembershipOutputSerializer
    project: Project

    @extend_schema(tags=[TAG], responses=MembershipOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        page = self.paginate_queryset(membership_list(project=self.project))
        return self.get_paginated_response(MembershipOutputSerializer(page, many=True).data)



class MembershipDetailApi(APIView):
    """One member. Owners change roles and remove members; any member may remove themselves
    (leave). A project's only owner can be neither demoted nor removed."""

    # Leaving is a write any member may do; the role check for everything else is below.
    write_role = Role.VIEWER
    project: Project

    def _require_owner(self, request: Request) -> None:
        role = role_of(user=request.user, project=self.project)
        if role != Role.OWNER:
            raise PermissionDenied(f"This needs the owner role; you are a {role} in this project.")

    @extend_schema(tags=[TAG], responses=MembershipOutputSerializer)
    def get(self, request: Request, project_id: int, user_id: int) -> Response:
        return Response(
            MembershipOutputSerializer(membership_get(project=self.project, user_id=user_id)).data
        )

    @extend_schema(
        tags=[TAG],
        request=MembershipRoleInputSerializer,
        responses=MembershipOutputSerializer,
        description="Change the member's role; without `role` nothing changes.",
    )
    def patch(self, request: Request, project_id: int, user_id: int) -> Response:
        self._require_owner(request)
        membership = membership_get(project=self.project, user_id=user_id)
        data = MembershipRoleInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        if "role" in data.validated_data:
            membership = membership_role_change(membership=membership, role=data.validated_data["role"])
        return Response(MembershipOutputSerializer(membership).data)

    @extend_schema(tags=[TAG], responses={204: OpenApiResponse(description="Removed from the project.")})
    def delete(self, request: Request, project_id: int, user_id: int) -> Response:
        if user_id != request.user.pk:
            self._require_owner(request)
        membership_remove(membership=membership_get(project=self.project, user_id=user_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationListApi(GenericAPIView):
    """The project's open invitation links (owners), and making a new one."""

    read_role = Role.OWNER
    write_role = Role.OWNER
    serializer_class = InvitationOutputSerializer
    project: Project

    @extend_schema(tags=[TAG], responses=InvitationOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        page = self.paginate_queryset(invitation_list_open(project=self.project))
        rows = [_with_url(request, invitation) for invitation in page or []]
        return self.get_paginated_response(InvitationOutputSerializer(rows, many=True).data)

    @extend_schema(tags=[TAG], request=InvitationInputSerializer, responses={201: InvitationOutputSerializer})
    def post(self, request: Request, project_id: int) -> Response:
        data = InvitationInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = invitation_create(
            project=self.project, created_by=signed_in_user(request), **data.validated_data
        )
        return Response(
            InvitationOutputSerializer(_with_url(request, invitation)).data, status=status.HTTP_201_CREATED
        )


class InvitationDetailApi(APIView):
    """An open invitation (owners), and revoking it: its link stops working. A used or revoked
    invitation is no longer readable (404), like a link that never was."""

    read_role = Role.OWNER
    write_role = Role.OWNER
    project: Project

    @extend_schema(tags=[TAG], responses=InvitationOutputSerializer)
    def get(self, request: Request, project_id: int, invitation_id: int) -> Response:
        invitation = invitation_get(project=self.project, invitation_id=invitation_id, open_only=True)
        return Response(InvitationOutputSerializer(_with_url(request, invitation)).data)

    @extend_schema(tags=[TAG], responses={204: OpenApiResponse(description="Revoked.")})
    def delete(self, request: Request, project_id: int, invitation_id: int) -> Response:
        invitation_revoke(invitation=invitation_get(project=self.project, invitation_id=invitation_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationAcceptApi(APIView):
    """Accept an invitation: you become a member with its role, or your role is raised to it
    (never lowered). A used or revoked invitation gives 400 with the reason."""

    @extend_schema(tags=[TAG], request=None, responses=InvitationAcceptOutputSerializer)
    def post(self, request: Request, token: str) -> Response:
        invitation = invitation_get_by_token(token=token)
        membership, used = invitation_accept(invitation=invitation, user=signed_in_user(request))
        return Response(
            InvitationAcceptOutputSerializer(
                {
                    "project_id": invitation.project_id,
                    "project_name": invitation.project.name,
                    "role": membership.role,
                    "used": used,
                }
            ).data
        )
