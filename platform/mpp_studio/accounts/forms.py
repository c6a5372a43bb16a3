"""Forms of the accounts pages: sign-up, project details, member roles, invitations."""

from typing import Any, ClassVar

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from mpp_studio.accounts.models import Invitation, Project
from mpp_studio.accounts.roles import Role


class SignupForm(UserCreationForm):
    """User name, e-mail address and a password checked by the site's password validators."""

    email = forms.EmailField(
        label="E-mail address",
        help_text="Only used to tell you about your account; never shown to other members.",
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]  # the stubs leave out the form's Meta
        model = get_user_model()
        fields = ("username", "email")

    def _post_clean(self) -> None:
        super()._post_clean()  # type: ignore[misc]  # ModelForm's private hook, not in the stubs
        # Django reports a weak password under the repeat field; when both were typed the same,
        # the problem is the password itself, so say it there. (`errors` is `_errors` here: the
        # form is being cleaned.)
        if "password2" in self.errors and self.data.get("password1") == self.data.get("password2"):
            self.errors["password1"] = self.errors.pop("password2")

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account with this e-mail address already exists; sign in instead."
            )
        return email


class ProjectForm(forms.ModelForm):
    """A project's name and description."""

    class Meta:
        model = Project
        fields = ("name", "description")
        widgets: ClassVar[dict[str, forms.Widget]] = {"description": forms.Textarea(attrs={"rows": 4})}
        help_texts: ClassVar[dict[str, str]] = {
            "name": "For example “Agreement in English and Chinese”.",
            "description": "Optional: what the project studies, for the other members.",
        }


class RoleForm(forms.Form):
    """A member's new role."""

    role = forms.ChoiceField(choices=Role.choices)


class InvitationForm(forms.ModelForm):
    """The role an invitation link gives, and who it is for."""

    class Meta:
        model = Invitation
        fields = ("role", "note")
        labels: ClassVar[dict[str, str]] = {"note": "Who it is for (optional)"}
        help_texts: ClassVar[dict[str, str]] = {"note": ""}


class DeleteConfirmForm(forms.Form):
    """Deleting a project needs its name typed out."""

    confirm_name = forms.CharField(label="Type the project’s name to confirm", strip=True)

    def __init__(self, *args: Any, project: Project, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.project = project

    def clean_confirm_name(self) -> str:
        typed: str = self.cleaned_data["confirm_name"]
        if typed != self.project.name:
            raise forms.ValidationError(
                f"This does not match the project’s name “{self.project.name}”; nothing was deleted."
            )
        return typed
