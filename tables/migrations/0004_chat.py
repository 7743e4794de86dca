# Table talk: its own tables, nothing added to a table's row or its state.

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0003_recent_actions'),
    ]

    operations = [
        migrations.CreateModel(
            name='ChatMessage',
            fields=[
                ('id', models.BigAutoField(
                    auto_created=True, primary_key=True, serialize=False, verbose_name='ID',
                )),
                ('position', models.PositiveSmallIntegerField()),
                ('name', models.CharField(max_length=20)),
                ('text', models.CharField(blank=True, max_length=200)),
                ('reaction', models.CharField(blank=True, max_length=20)),
                ('event', models.CharField(blank=True, max_length=20)),
                ('detail', models.JSONField(blank=True, default=dict)),
                ('at', models.DateTimeField(default=django.utils.timezone.now)),
                ('deleted', models.BooleanField(default=False)),
                ('table', models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name='chat',
                    to='tables.table',
                )),
            ],
            options={
                'ordering': ['table', 'at', 'id'],
                'indexes': [
                    models.Index(fields=['table', 'at'], name='chat_by_table_time'),
                ],
            },
        ),
        migrations.CreateModel(
            name='TableTalk',
            fields=[
                ('table', models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                    related_name='talk', serialize=False, to='tables.table',
                )),
                ('off', models.BooleanField(default=False)),
                ('by', models.CharField(blank=True, max_length=20)),
                ('at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
        migrations.CreateModel(
            name='ChatMute',
            fields=[
                ('id', models.BigAutoField(
                    auto_created=True, primary_key=True, serialize=False, verbose_name='ID',
                )),
                ('position', models.PositiveSmallIntegerField()),
                ('claim_hash', models.CharField(blank=True, max_length=64)),
                ('name', models.CharField(max_length=20)),
                ('at', models.DateTimeField(default=django.utils.timezone.now)),
                ('table', models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name='chat_mutes',
                    to='tables.table',
                )),
            ],
        ),
    ]
