from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "mpp_studio.jobs"
    label = "jobs"
    verbose_name = "Background jobs"
