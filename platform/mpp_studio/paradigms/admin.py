from django.contrib import admin

from mpp_studio.paradigms.models import LibraryTemplate


@admin.register(LibraryTemplate)
class TemplateAdmin(admin.ModelAdmin):
    list_display = ("uid", "language", "phenomenon", "file_name", "problem_count", "short_hash", "created_at")
    list_filter = ("language", "phenomenon")
    search_fields = ("uid", "phenomenon", "description", "file_name")
    list_select_related = ("vocabulary",)
    raw_id_fields = ("vocabulary",)
    # The check's outcome belongs to the version it was computed for; only an import recomputes it.
    readonly_fields = ("content_hash", "engine_hash", "problems", "capacity_text", "created_at", "updated_at")

    @admin.display(description="problems")
    def problem_count(self, obj: LibraryTemplate) -> int:
        return len(obj.problems)

    @admin.display(description="version")
    def short_hash(self, obj: LibraryTemplate) -> str:
        return obj.content_hash[:8]
