from django.apps import AppConfig


class LexiconConfig(AppConfig):
    name = "mpp_studio.lexicon"
    label = "lexicon"
    verbose_name = "Lexicon"

    def ready(self) -> None:
        """Register how `manage.py requeue_jobs --queued-for` sends this app's import jobs again."""
        from mpp_studio.jobs.queueing import register_resender
        from mpp_studio.lexicon.requeue import resend_vocabulary_import
        from mpp_studio.lexicon.services.import_jobs import JOB_KIND

        register_resender(JOB_KIND, resend_vocabulary_import)
