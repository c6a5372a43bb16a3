from django.db import migrations

from triplets.other_errors import sentence_key

BATCH = 2000


def fill_keys(apps, schema_editor):
    """Key the pairs stored before: a run looks up a sentence's other rows by its key. Only the
    rows still unkeyed are read, so a backfill cut short goes on where it stopped."""
    records = apps.get_model("learner", "LearnerPairRecord")
    last = 0
    while True:
        batch = list(
            records.objects.filter(pk__gt=last, learner_key="").order_by("pk").only("pk", "learner")[:BATCH]
        )
        if not batch:
            return
        for record in batch:
            record.learner_key = sentence_key(record.learner)
        records.objects.bulk_update(batch, ["learner_key"])
        last = batch[-1].pk


class Migration(migrations.Migration):
    # Each batch commits on its own: a big table is not rewritten in one transaction.
    atomic = False

    dependencies = [
        ("learner", "0006_pair_sentence_key"),
    ]

    operations = [
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
