from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    name = "mpp_studio.evaluation"
    label = "evaluation"
    verbose_name = "Model evaluation"
