from django.apps import AppConfig


class LearnerConfig(AppConfig):
    name = "mpp_studio.learner"
    label = "learner"
    verbose_name = "Learner triplets"

    def ready(self) -> None:
        """Register how `manage.py requeue_jobs --queued-for` sends this app's jobs again."""
        from mpp_studio.jobs.queueing import register_resender
        from mpp_studio.learner.requeue import resend_corpus_read, resend_triplets
        from mpp_studio.learner.services import JOB_KIND, READ_JOB_KIND

        register_resender(JOB_KIND, resend_triplets)
        register_resender(READ_JOB_KIND, resend_corpus_read)
