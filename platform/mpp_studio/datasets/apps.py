from django.apps import AppConfig


class DatasetsConfig(AppConfig):
    name = "mpp_studio.datasets"
    label = "datasets"
    verbose_name = "Datasets"
