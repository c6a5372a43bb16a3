from django.apps import AppConfig


class LearnerConfig(AppConfig):
    name = "mpp_studio.learner"
    label = "learner"
    verbose_name = "Learner triplets"
