from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    name = "mpp_studio.evaluation"
    label = "evaluation"
    verbose_name = "Model evaluation"

    def ready(self) -> None:
        """Register how `manage.py requeue_jobs --queued-for` sends this app's jobs again."""
        from mpp_studio.evaluation.requeue import resend_scoring
        from mpp_studio.evaluation.services.runs import JOB_KIND
        from mpp_studio.jobs.queueing import register_resender

        register_resender(JOB_KIND, resend_scoring)
