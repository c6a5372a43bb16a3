from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "mpp_studio.core"
    label = "core"
    verbose_name = "Core"
