# A corpus's files are read by a background job: the job, and the kept files until it has finished.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('jobs', '0002_unsent_message'),
        ('learner', '0002_chunk_attempts'),
    ]

    operations = [
        migrations.AddField(
            model_name='learnercorpus',
            name='job',
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name='learner_corpus',
                to='jobs.job',
            ),
        ),
        migrations.AddField(
            model_name='learnercorpus',
            name='uploads',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
