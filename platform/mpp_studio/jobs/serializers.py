"""API output of jobs: status, progress and message (every app that answers with a job uses it)."""

from rest_framework import serializers

from mpp_studio.jobs.models import Job


class JobOutputSerializer(serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)
    finished = serializers.BooleanField(read_only=True)

    class Meta:
        model = Job
        fields = (
            "id",
            "kind",
            "status",
            "progress_done",
            "progress_total",
            "progress_unit",
            "percent",
            "finished",
            "message",
            "created_at",
            "started_at",
            "finished_at",
        )
        read_only_fields = fields
