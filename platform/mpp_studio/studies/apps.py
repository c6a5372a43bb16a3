from django.apps import AppConfig


class StudiesConfig(AppConfig):
    name = "mpp_studio.studies"
    label = "studies"
    verbose_name = "Validation studies"
