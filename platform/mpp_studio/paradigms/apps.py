from django.apps import AppConfig


class ParadigmsConfig(AppConfig):
    name = "mpp_studio.paradigms"
    label = "paradigms"
    verbose_name = "Paradigms"
