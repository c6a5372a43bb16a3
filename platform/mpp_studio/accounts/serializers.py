"""Serializers of the accounts API: what each endpoint reads and writes."""

from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from mpp_studio.accounts.roles import Role
from mpp_studio.core.api_input import InputSerializer


class ProjectInputSerializer(InputSerializer):
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(allow_blank=True, required=False, default="")


class ProjectUpdateInputSerializer(InputSerializer):
    name = serializers.CharField(max_length=200, required=False)
    description = serializers.CharField(allow_blank=True, required=False)


class ProjectOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices, help_text="Your role in the project.")
    vocabulary_count = serializers.IntegerField()
    template_count = serializers.IntegerField()
    phrase_count = serializers.IntegerField()
    dataset_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MemberUserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class MembershipOutputSerializer(serializers.Serializer):
    user = MemberUserSerializer()
    role = serializers.ChoiceField(choices=Role.choices)
    created_at = serializers.DateTimeField(help_text="When they joined.")


class MembershipRoleInputSerializer(InputSerializer):
    role = serializers.ChoiceField(choices=Role.choices)


class InvitationInputSerializer(InputSerializer):
    role = serializers.ChoiceField(choices=Role.choices)
    note = serializers.CharField(max_length=200, allow_blank=True, required=False, default="")


class InvitationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    role = serializers.ChoiceField(choices=Role.choices)
    note = serializers.CharField()
    token = serializers.CharField()
    url = serializers.CharField(help_text="The link to send; it opens the invitation page.")
    created_by = serializers.CharField(source="created_by.get_username")
    created_at = serializers.DateTimeField()


class InvitationAcceptOutputSerializer(serializers.Serializer):
    project_id = serializers.IntegerField()
    project_name = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices, help_text="Your role in the project now.")
    used = serializers.BooleanField(
        help_text="False when you already had this role or a higher one: nothing changed and "
        "the invitation stays open."
    )


class TokenInputSerializer(InputSerializer, AuthTokenSerializer):
    """POST /api/token/: a user name and password, as text (DRF's AuthTokenSerializer)."""


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")
