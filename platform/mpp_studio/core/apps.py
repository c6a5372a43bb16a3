from django.apps import AppConfig
from django.urls import register_converter


class CoreConfig(AppConfig):
    name = "mpp_studio.core"
    label = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        """Register the `<id:...>` URL converter before any URL module is read."""
        from mpp_studio.core.converters import DatabaseIdConverter

        register_converter(DatabaseIdConverter, "id")
