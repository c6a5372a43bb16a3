"""The researcher's study pages, mounted at /projects/<project_id>/studies/ (namespace `studies`)."""

from django.urls import path

from mpp_studio.studies import preview_views, views, views_analysis

app_name = "studies"

urlpatterns = [
    path("", views.study_list_view, name="study_list"),
    path("new/", views.study_new_view, name="study_new"),
    path("<id:study_id>/", views.study_detail_view, name="study_detail"),
    path("<id:study_id>/edit/", views.study_edit_view, name="study_edit"),
    path("<id:study_id>/status/", views.study_status_partial, name="study_status"),
    path("<id:study_id>/open/", views.study_open_view, name="study_open"),
    path("<id:study_id>/close/", views.study_close_view, name="study_close"),
    path("<id:study_id>/prolific/", views.study_prolific_view, name="study_prolific"),
    path("<id:study_id>/preview/", preview_views.study_preview_view, name="study_preview"),
    path(
        "<id:study_id>/preview/consent/",
        preview_views.study_preview_consent_view,
        name="study_preview_consent",
    ),
    path("<id:study_id>/preview/trial/", preview_views.study_preview_trial_view, name="study_preview_trial"),
    path(
        "<id:study_id>/preview/answer/", preview_views.study_preview_answer_view, name="study_preview_answer"
    ),
    path("<id:study_id>/preview/done/", preview_views.study_preview_done_view, name="study_preview_done"),
    path(
        "<id:study_id>/preview/withdraw/",
        preview_views.study_preview_withdraw_view,
        name="study_preview_withdraw",
    ),
    path("<id:study_id>/analysis/", views_analysis.study_analysis_view, name="study_analysis"),
    path(
        "<id:study_id>/analysis/rules/",
        views_analysis.study_analysis_rules_view,
        name="study_analysis_rules",
    ),
    path(
        "<id:study_id>/analysis/export/<str:what>/",
        views_analysis.study_analysis_export_view,
        name="study_analysis_export",
    ),
    path(
        "<id:study_id>/analysis/publish/",
        views_analysis.study_analysis_publish_view,
        name="study_analysis_publish",
    ),
    path("<id:study_id>/analysis/revalidate/", views_analysis.study_revalidate_view, name="study_revalidate"),
]
