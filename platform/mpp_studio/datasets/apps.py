from django.apps import AppConfig


class DatasetsConfig(AppConfig):
    name = "mpp_studio.datasets"
    label = "datasets"
    verbose_name = "Datasets"

    def ready(self) -> None:
        """Register how `manage.py requeue_jobs --queued-for` sends this app's jobs again."""
        from mpp_studio.datasets.requeue import resend_generation, resend_import
        from mpp_studio.datasets.services.datasets import JOB_KIND
        from mpp_studio.datasets.services.imports import JOB_KIND as IMPORT_JOB_KIND
        from mpp_studio.jobs.queueing import register_resender

        register_resender(JOB_KIND, resend_generation)
        register_resender(IMPORT_JOB_KIND, resend_import)
