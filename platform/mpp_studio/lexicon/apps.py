from django.apps import AppConfig


class LexiconConfig(AppConfig):
    name = "mpp_studio.lexicon"
    label = "lexicon"
    verbose_name = "Lexicon"

    def ready(self) -> None:
        """Register how `manage.py requeue_jobs --queued-for` sends this app's jobs again."""
        from mpp_studio.jobs.queueing import register_resender
        from mpp_studio.lexicon import requeue
        from mpp_studio.lexicon.services.import_jobs import JOB_KIND
        from mpp_studio.lexicon.services.updates import APPLY_JOB_KIND, READ_JOB_KIND

        register_resender(JOB_KIND, requeue.resend_vocabulary_import)
        register_resender(READ_JOB_KIND, requeue.resend_vocabulary_update_read)
        register_resender(APPLY_JOB_KIND, requeue.resend_vocabulary_update_apply)
