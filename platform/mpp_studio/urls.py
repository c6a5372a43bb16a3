"""Top-level URLs: the dashboard, projects and their content, the library, the API, sign-in, admin,
health check."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from mpp_studio.accounts.login_views import RateLimitedLoginView, admin_login, password_reset_unavailable
from mpp_studio.accounts.views import dashboard
from mpp_studio.core.views import healthz
from mpp_studio.paradigms.views.catalogue import home

admin.site.site_header = "MPP Studio administration"
admin.site.site_title = "MPP Studio"

urlpatterns = [
    path("", dashboard, name="home"),
    path("library/", home, name="library"),
    path("paradigms/", include("mpp_studio.paradigms.urls")),
    path("", include("mpp_studio.accounts.urls")),
    path("projects/<id:project_id>/", include("mpp_studio.lexicon.urls")),
    path("projects/<id:project_id>/", include("mpp_studio.paradigms.project_urls")),
    path("projects/<id:project_id>/", include("mpp_studio.datasets.urls")),
    path("projects/<id:project_id>/scoring/", include("mpp_studio.evaluation.urls")),
    path("projects/<id:project_id>/learner/", include("mpp_studio.learner.urls")),
    path("projects/<id:project_id>/studies/", include("mpp_studio.studies.urls")),
    path("s/", include("mpp_studio.studies.public_urls")),
    path("api/", include("mpp_studio.api_urls")),
    path("healthz", healthz, name="healthz"),
    # Before django.contrib.auth.urls: the sign-in page with its rate limit and lockout message.
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    # Before admin.site.urls: the admin's sign-in under the sign-in rate limit.
    path("admin/login/", admin_login, name="admin_login"),
    path("admin/", admin.site.urls),
]

if settings.MPP_PASSWORD_RESET_BY_EMAIL:
    urlpatterns += [
        path("accounts/password_reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
        path(
            "accounts/password_reset/done/",
            auth_views.PasswordResetDoneView.as_view(),
            name="password_reset_done",
        ),
        path(
            "accounts/reset/<uidb64>/<token>/",
            auth_views.PasswordResetConfirmView.as_view(),
            name="password_reset_confirm",
        ),
        path(
            "accounts/reset/done/",
            auth_views.PasswordResetCompleteView.as_view(),
            name="password_reset_complete",
        ),
    ]
else:
    # No mail can leave: say so, rather than a form that claims a mail was sent.
    urlpatterns += [path("accounts/password_reset/", password_reset_unavailable, name="password_reset")]

# An error no view handled: the database-outage 503 when the database is unreachable, else a 500.
handler500 = "mpp_studio.core.views.server_error"
# A request over the upload limits (body, fields, files) gets a page or JSON naming the limit.
handler400 = "mpp_studio.core.request_errors.bad_request"
# An API address no route takes is the API's JSON 404; elsewhere Django's page.
handler404 = "mpp_studio.core.request_errors.not_found"
