"""The participant's public pages, mounted at /s/ (namespace `studies_public`); see
participant_views for what each does."""

from django.urls import path

from mpp_studio.studies import participant_views as views

app_name = "studies_public"

urlpatterns = [
    path("<str:slug>/", views.start_view, name="start"),
    path("<str:slug>/run/<str:token>/", views.run_view, name="run"),
    path("<str:slug>/run/<str:token>/trial/", views.trial_view, name="trial"),
    path("<str:slug>/run/<str:token>/answer/", views.answer_view, name="answer"),
    path("<str:slug>/run/<str:token>/done/", views.done_view, name="done"),
    path("<str:slug>/run/<str:token>/withdraw/", views.withdraw_view, name="withdraw"),
]
