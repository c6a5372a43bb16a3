"""The raw Prolific PID and SESSION_ID are no longer stored: the SESSION_ID becomes its HMAC
(`session_hash`, the proof a returning PID needs to resume from another browser) and the PID
column goes (its HMAC, `pid_hash`, was already stored). A study gets a quota per list."""

from django.db import migrations, models
from django.utils.crypto import salted_hmac

SESSION_SALT = "mpp_studio.studies.prolific_session"  # services.SESSION_SALT at this migration


def hash_sessions(apps, schema_editor):
    Participation = apps.get_model("studies", "Participation")
    for participation in Participation.objects.exclude(session_id_param="").iterator():
        raw = participation.session_id_param.strip()
        participation.session_hash = salted_hmac(SESSION_SALT, raw, algorithm="sha256").hexdigest()
        participation.save(update_fields=["session_hash"])


class Migration(migrations.Migration):
    dependencies = [("studies", "0003_study_filler_pairs")]

    operations = [
        migrations.AddField(
            model_name="participation",
            name="session_hash",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.RunPython(hash_sessions, migrations.RunPython.noop),
        migrations.RemoveField(model_name="participation", name="session_id_param"),
        migrations.RemoveField(model_name="participation", name="prolific_pid"),
        migrations.AddField(
            model_name="study",
            name="quota_per_list",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
