"""Sign-in with a rate limit and the lockout message: the sign-in page (`login`), the admin's
sign-in (`admin_login`) and the API's `POST /api/token/`. The lockout itself is enforced in
lockout.LockoutBackend; these views say so in plain words (429 with Retry-After) and limit sign-in
attempts per client address."""

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ErrorDetail, Throttled, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from mpp_studio.accounts.lockout import locked_for, lockout_message
from mpp_studio.accounts.serializers import TokenInputSerializer, TokenOutputSerializer
from mpp_studio.core import ratelimit
from mpp_studio.core.schema import ApiErrorsSerializer


def login_rate_wait(request: HttpRequest) -> int | None:
    """Count one sign-in attempt from this client; return the seconds to wait when over
    MPP_RATE_LIMIT_LOGIN, None when allowed."""
    rate = ratelimit.setting_rate("MPP_RATE_LIMIT_LOGIN", "10/m")
    return ratelimit.hit("login", ratelimit.client_key(request), rate)


class RateLimitedLoginView(LoginView):
    """Django's sign-in page; too many attempts from one client or a locked user name answer 429
    with the form and a message in plain words."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        """Return the sign-in answer, or the form with a 429 message when limited or locked."""
        wait = login_rate_wait(request)
        if wait is not None:
            form = self.get_form()
            context = self.get_context_data(form=form, limit_message=ratelimit.too_many_message(wait))
            return ratelimit.with_retry_after(self.render_to_response(context), wait)
        response = super().post(request, *args, **kwargs)
        username = str(request.POST.get("username", ""))
        locked = locked_for(username, request) if response.status_code == 200 else 0
        if locked and isinstance(response, HttpResponse):
            form = self.get_form()
            context = self.get_context_data(form=form, limit_message=lockout_message(locked))
            return ratelimit.with_retry_after(self.render_to_response(context), locked)
        return response


def admin_login(request: HttpRequest) -> HttpResponseBase:
    """The admin's sign-in page under the same per-address limit as the others: over it, the form
    comes back unchecked with the wait in words (429, Retry-After)."""
    if request.method == "POST":
        wait = login_rate_wait(request)
        if wait is not None:
            messages.error(request, ratelimit.too_many_message(wait))
            request.method = "GET"  # show the form again; the credentials are not even read
            response = admin.site.login(request)
            return ratelimit.with_retry_after(response, wait)
    return admin.site.login(request)


def password_reset_unavailable(request: HttpRequest) -> HttpResponse:
    """The password-reset address on a server with no outgoing mail (no EMAIL_URL): a 404 page
    saying how to get a new password instead, never a form claiming a mail was sent."""
    return render(request, "registration/password_reset_unavailable.html", status=404)


class RateLimitedTokenView(ObtainAuthToken):
    """`POST /api/token/` {username, password} -> {token}; 429 {"errors": [...]} with Retry-After
    when too many attempts come from one client or the user name is locked."""

    serializer_class = TokenInputSerializer

    @extend_schema(
        tags=["Projects and members"],
        auth=[],
        request=TokenInputSerializer,
        responses={
            200: TokenOutputSerializer,
            429: OpenApiResponse(
                ApiErrorsSerializer,
                description="Too many sign-in attempts from this client, or the user name is locked.",
            ),
        },
        description="The user's API token, for their user name and password (no token needed). "
        "Wrong credentials are a 400.",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Return the user's token, or 400 (wrong credentials) or 429 (limited or locked), the
        errors in the API's layout ({"errors": [{"field", "message"}]})."""
        wait = login_rate_wait(request)
        if wait is not None:
            raise _throttled(ratelimit.too_many_message(wait), wait)
        serializer = self.get_serializer(data=request.data)
        if not serializer.is_valid():
            username = str(request.data.get("username", "")) if hasattr(request.data, "get") else ""
            locked = locked_for(username, request)
            if locked:
                raise _throttled(lockout_message(locked), locked)
            raise ValidationError(serializer.errors)
        token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})


def _throttled(message: str, wait: int) -> Throttled:
    """Return a 429 error (DRF sets Retry-After from `wait`) whose message is ours alone."""
    error = Throttled(wait=wait)
    error.detail = ErrorDetail(message, code="throttled")
    return error
