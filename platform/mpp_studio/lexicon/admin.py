from django.contrib import admin

from mpp_studio.lexicon.models import LibraryVocabulary


@admin.register(LibraryVocabulary)
class VocabularyAdmin(admin.ModelAdmin):
    list_display = ("name", "language", "file_name", "short_hash", "created_at")
    list_filter = ("language",)
    search_fields = ("name", "file_name")
    readonly_fields = ("content_hash", "created_at", "updated_at")

    @admin.display(description="version")
    def short_hash(self, obj: LibraryVocabulary) -> str:
        return obj.content_hash[:8]
