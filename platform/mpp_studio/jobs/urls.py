"""URLs of the job status partial, included under a project (`/projects/<project_id>/`).

No `app_name`: the names join the namespace of the app that includes this module.
"""

from django.urls import path

from mpp_studio.jobs.views import job_status

urlpatterns = [
    path("jobs/<id:job_id>/status/", job_status, name="job_status"),
]
