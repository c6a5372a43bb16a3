"""Admin pages of model evaluation: read-mostly views for support."""

from django.contrib import admin

from mpp_studio.evaluation.models import LanguageModel, ScoreConfig, ScoringChunk, ScoringRun


@admin.register(LanguageModel)
class LanguageModelAdmin(admin.ModelAdmin):
    list_display = ("name", "project", "kind", "source", "revision", "series", "step")
    list_filter = ("kind",)
    search_fields = ("name", "source", "series")


@admin.register(ScoreConfig)
class ScoreConfigAdmin(admin.ModelAdmin):
    list_display = ("language_model", "method", "dtype", "score_eos", "settings_key")
    readonly_fields = ("settings_key", "scoring_version", "describe")


@admin.register(ScoringRun)
class ScoringRunAdmin(admin.ModelAdmin):
    list_display = ("name", "project", "job", "reduction", "created_at")


@admin.register(ScoringChunk)
class ScoringChunkAdmin(admin.ModelAdmin):
    list_display = ("run", "config", "dataset", "index", "status", "attempts", "n_sentences")
    list_filter = ("status",)
