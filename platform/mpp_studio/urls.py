"""Top-level URLs: the library home page, paradigm pages, sign-in, the admin and the health check."""

from django.contrib import admin
from django.urls import include, path

from mpp_studio.core.views import healthz
from mpp_studio.paradigms.views import home

admin.site.site_header = "MPP Studio administration"
admin.site.site_title = "MPP Studio"

urlpatterns = [
    path("", home, name="home"),
    path("paradigms/", include("mpp_studio.paradigms.urls")),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
