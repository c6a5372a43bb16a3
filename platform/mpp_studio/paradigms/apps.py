from django.apps import AppConfig


class ParadigmsConfig(AppConfig):
    name = "mpp_studio.paradigms"
    label = "paradigms"
    verbose_name = "Paradigms"

    def ready(self) -> None:
        """Register how `manage.py requeue_jobs --queued-for` sends this app's import jobs again,
        and recount the templates that name a vocabulary when it changes."""
        from mpp_studio.jobs.queueing import register_resender
        from mpp_studio.lexicon.signals import vocabulary_changed
        from mpp_studio.paradigms import requeue
        from mpp_studio.paradigms.services import library_into_project, zhoblimp_import
        from mpp_studio.paradigms.services.recount import recount_on_vocabulary_change

        vocabulary_changed.connect(recount_on_vocabulary_change, dispatch_uid="paradigms.recount")

        register_resender(zhoblimp_import.JOB_KIND, requeue.resend_zhoblimp_import)
        register_resender(library_into_project.JOB_KIND, requeue.resend_library_import)
