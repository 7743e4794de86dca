"""The whole schema in one migration: it replaces the sixteen that built it (0001_initial to
0016_out_of_chips). A fresh database runs this one; a database that had run all sixteen counts it
as applied without running anything (Django's ``replaces``). A database part-way through the old
chain must first be brought to 0016 by the release that still had it. The one data step of the
old chain (a seat's first hand copied from a late arrival's request) has nothing to copy in a
new database, so it is not here. Written by ``makemigrations``: its long lines are kept."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ("tables", "0001_initial"),
        ("tables", "0002_former_claims"),
        ("tables", "0003_recent_actions"),
        ("tables", "0004_chat"),
        ("tables", "0005_late_arrivals"),
        ("tables", "0006_deck_commitment"),
        ("tables", "0007_seat_moves"),
        ("tables", "0008_season"),
        ("tables", "0009_learning_table"),
        ("tables", "0009_tournament"),
        ("tables", "0010_merge_0009_learning_table_0009_tournament"),
        ("tables", "0012_tournament_pages"),
        ("tables", "0013_seat_windows"),
        ("tables", "0014_time_bank_rest_of_board"),
        ("tables", "0015_web_push_and_game_nights"),
        ("tables", "0016_out_of_chips"),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='FailedJoin',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('client', models.CharField(db_index=True, max_length=64)),
                ('at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
            ],
        ),
        migrations.CreateModel(
            name='Table',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.CharField(db_index=True, max_length=8)),
                ('mode', models.CharField(choices=[('friends', 'Play with friends'), ('computer', 'Play against the computer'), ('local', 'Pass and play')], default='friends', max_length=10)),
                ('seat_count', models.PositiveSmallIntegerField(default=6)),
                ('max_hands', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('blind_every', models.PositiveSmallIntegerField(default=10)),
                ('computer_level', models.CharField(choices=[('easy', 'Easy'), ('medium', 'Medium'), ('hard', 'Hard')], default='medium', max_length=6)),
                ('turn_seconds', models.PositiveSmallIntegerField(default=30)),
                ('time_bank', models.PositiveSmallIntegerField(default=60)),
                ('rest_of_board', models.BooleanField(default=True)),
                ('rest_of_board_hand', models.PositiveIntegerField(blank=True, null=True)),
                ('status', models.CharField(choices=[('waiting', 'Waiting for players'), ('playing', 'Playing'), ('finished', 'Game over'), ('closed', 'Closed')], default='waiting', max_length=8)),
                ('host_position', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('state', models.JSONField(blank=True, null=True)),
                ('version', models.PositiveBigIntegerField(default=0)),
                ('recent_actions', models.JSONField(blank=True, default=list)),
                ('next_deadline', models.DateTimeField(blank=True, db_index=True, null=True)),
                ('deadline_kind', models.CharField(blank=True, choices=[('', 'Nothing pending'), ('bot', 'A computer player acts'), ('turn', 'A person runs out of time'), ('away', 'An away player acts'), ('next_hand', 'The next hand is dealt')], default='', max_length=10)),
                ('paused', models.BooleanField(default=False, help_text='A moderator stopped the clock.')),
                ('learning', models.BooleanField(default=False)),
                ('bot_reasons', models.JSONField(blank=True, default=list)),
                ('closed_reason', models.CharField(blank=True, max_length=200)),
                ('tournament_number', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('next_table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tables.table')),
            ],
        ),
        migrations.CreateModel(
            name='Group',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.CharField(max_length=12, unique=True)),
                ('name', models.CharField(max_length=40)),
                ('points', models.CharField(choices=[('10-7-5-3-2-1', '10, 7, 5, 3, 2, 1 points'), ('3-2-1', '3, 2, 1 points (top three)'), ('1', '1 point a win'), ('chips', 'Chips won')], default='10-7-5-3-2-1', max_length=20)),
                ('creator_hash', models.CharField(db_index=True, max_length=64)),
                ('hide_computers', models.BooleanField(default=False)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
        migrations.CreateModel(
            name='IdentityMove',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token_hash', models.CharField(max_length=64, unique=True)),
                ('sealed', models.TextField(blank=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('expires_at', models.DateTimeField(db_index=True)),
                ('used_at', models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.CreateModel(
            name='PushSubscription',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('endpoint', models.URLField(max_length=1000, unique=True)),
                ('p256dh', models.CharField(max_length=200)),
                ('auth', models.CharField(max_length=100)),
                ('phone', models.CharField(db_index=True, max_length=64)),
                ('language', models.CharField(default='en', max_length=10)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
        migrations.CreateModel(
            name='GameStats',
            fields=[
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='game_stats', serialize=False, to='tables.table')),
                ('through', models.PositiveIntegerField(default=0)),
                ('data', models.JSONField(default=dict)),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.CreateModel(
            name='LateSeats',
            fields=[
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='late_seats', serialize=False, to='tables.table')),
                ('open', models.BooleanField(default=False)),
            ],
        ),
        migrations.CreateModel(
            name='PushedTurn',
            fields=[
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='+', serialize=False, to='tables.table')),
                ('turn', models.CharField(max_length=64)),
            ],
        ),
        migrations.CreateModel(
            name='StatsAtTable',
            fields=[
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='stats_setting', serialize=False, to='tables.table')),
                ('off', models.BooleanField(default=False)),
            ],
        ),
        migrations.CreateModel(
            name='TableTalk',
            fields=[
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='talk', serialize=False, to='tables.table')),
                ('off', models.BooleanField(default=False)),
                ('by', models.CharField(blank=True, max_length=20)),
                ('at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
        migrations.CreateModel(
            name='FormerClaim',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('claim_hash', models.CharField(db_index=True, max_length=64)),
                ('name', models.CharField(max_length=20)),
                ('first_hand', models.PositiveIntegerField(default=0)),
                ('last_hand', models.PositiveIntegerField(default=0)),
                ('left_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='former_claims', to='tables.table')),
            ],
        ),
        migrations.CreateModel(
            name='ChatMute',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('claim_hash', models.CharField(blank=True, max_length=64)),
                ('name', models.CharField(max_length=20)),
                ('at', models.DateTimeField(default=django.utils.timezone.now)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_mutes', to='tables.table')),
            ],
        ),
        migrations.CreateModel(
            name='GameNight',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('starts_at', models.DateTimeField()),
                ('zone', models.CharField(default='UTC', max_length=64)),
                ('note', models.CharField(blank=True, max_length=140)),
                ('proposer_hash', models.CharField(max_length=64)),
                ('proposer_name', models.CharField(max_length=20)),
                ('opened_at', models.DateTimeField(blank=True, null=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tables.table')),
                ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='nights', to='tables.group')),
            ],
        ),
        migrations.CreateModel(
            name='GroupGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('removed', models.BooleanField(default=False)),
                ('added_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='games', to='tables.group')),
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='group_game', to='tables.table')),
            ],
        ),
        migrations.CreateModel(
            name='Hand',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('started_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('ended_at', models.DateTimeField(blank=True, null=True)),
                ('record', models.JSONField()),
                ('players', models.JSONField(default=list)),
                ('final_stacks', models.JSONField(blank=True, null=True)),
                ('cancelled', models.BooleanField(default=False)),
                ('deck_root', models.CharField(blank=True, max_length=64)),
                ('reasons', models.JSONField(blank=True, default=list)),
                ('rest_of_board', models.JSONField(blank=True, default=dict)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hands', to='tables.table')),
            ],
            options={
                'ordering': ['table', 'number'],
            },
        ),
        migrations.CreateModel(
            name='ModerationAction',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('at', models.DateTimeField(default=django.utils.timezone.now)),
                ('action', models.CharField(max_length=40)),
                ('reason', models.TextField(blank=True)),
                ('detail', models.JSONField(blank=True, default=dict)),
                ('moderator', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='moderation', to='tables.table')),
            ],
            options={
                'ordering': ['-at'],
            },
        ),
        migrations.CreateModel(
            name='PageInSight',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('phone', models.CharField(max_length=64)),
                ('visible', models.PositiveSmallIntegerField(default=0)),
                ('seen_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tables.table')),
            ],
        ),
        migrations.CreateModel(
            name='PushClaim',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('claim_hash', models.CharField(db_index=True, max_length=64)),
                ('subscription', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='claims', to='tables.pushsubscription')),
            ],
        ),
        migrations.CreateModel(
            name='Seat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('name', models.CharField(max_length=20)),
                ('is_computer', models.BooleanField(default=False)),
                ('level', models.CharField(blank=True, choices=[('easy', 'Easy'), ('medium', 'Medium'), ('hard', 'Hard')], max_length=6)),
                ('claim_hash', models.CharField(blank=True, db_index=True, max_length=64)),
                ('joined_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('last_seen', models.DateTimeField(blank=True, null=True)),
                ('away', models.BooleanField(default=False)),
                ('timeouts_in_row', models.PositiveSmallIntegerField(default=0)),
                ('first_hand', models.PositiveIntegerField(default=0)),
                ('connections', models.PositiveSmallIntegerField(default=0)),
                ('bank_used', models.PositiveSmallIntegerField(default=0)),
                ('tell_next_game', models.BooleanField(default=False)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='tables.table')),
            ],
            options={
                'ordering': ['position'],
            },
        ),
        migrations.CreateModel(
            name='SeatMove',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('token_hash', models.CharField(max_length=64, unique=True)),
                ('claim_hash', models.CharField(max_length=64)),
                ('by_host', models.BooleanField(default=False)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('expires_at', models.DateTimeField(db_index=True)),
                ('used_at', models.DateTimeField(blank=True, null=True)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seat_moves', to='tables.table')),
            ],
        ),
        migrations.CreateModel(
            name='SeatRequest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=20)),
                ('claim_hash', models.CharField(db_index=True, max_length=64)),
                ('status', models.CharField(choices=[('pending', 'Waiting for the host'), ('approved', 'Sits down at the next hand'), ('refused', 'Refused by the host'), ('seated', 'Seated')], default='pending', max_length=8)),
                ('at', models.DateTimeField(default=django.utils.timezone.now)),
                ('position', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('took_over', models.CharField(blank=True, max_length=20)),
                ('first_hand', models.PositiveIntegerField(blank=True, null=True)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seat_requests', to='tables.table')),
            ],
            options={
                'ordering': ['table', 'at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='Tournament',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.CharField(db_index=True, max_length=8)),
                ('host_name', models.CharField(blank=True, max_length=20)),
                ('host_claim', models.CharField(blank=True, max_length=64)),
                ('entrants_wanted', models.PositiveSmallIntegerField(default=12)),
                ('computer_fill', models.BooleanField(default=True)),
                ('level_minutes', models.PositiveSmallIntegerField(blank=True, default=10, null=True)),
                ('level_hands', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('turn_seconds', models.PositiveSmallIntegerField(default=30)),
                ('time_bank', models.PositiveSmallIntegerField(default=60)),
                ('computer_level', models.CharField(default='medium', max_length=6)),
                ('status', models.CharField(choices=[('waiting', 'Waiting for players'), ('playing', 'Playing'), ('finished', 'Finished')], default='waiting', max_length=8)),
                ('paused', models.BooleanField(default=False)),
                ('paused_at', models.DateTimeField(blank=True, null=True)),
                ('paused_seconds', models.PositiveIntegerField(default=0)),
                ('level', models.PositiveSmallIntegerField(default=0)),
                ('level_started_at', models.DateTimeField(blank=True, null=True)),
                ('version', models.PositiveBigIntegerField(default=0)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'constraints': [models.CheckConstraint(condition=models.Q(('entrants_wanted__gte', 7), ('entrants_wanted__lte', 36)), name='tournament_7_to_36_entrants')],
            },
        ),
        migrations.AddField(
            model_name='table',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='tables', to='tables.tournament'),
        ),
        migrations.CreateModel(
            name='Entrant',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=20)),
                ('is_computer', models.BooleanField(default=False)),
                ('claim_hash', models.CharField(blank=True, db_index=True, max_length=64)),
                ('place', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('bust_table', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('bust_hand', models.PositiveIntegerField(blank=True, null=True)),
                ('started_last_hand_with', models.PositiveIntegerField(default=0)),
                ('position', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('joined_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tables.table')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entrants', to='tables.tournament')),
            ],
            options={
                'ordering': ['tournament', 'joined_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='GameNightAnswer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('claim_hash', models.CharField(max_length=64)),
                ('name', models.CharField(max_length=20)),
                ('answer', models.CharField(choices=[('in', 'In'), ('maybe', 'Maybe'), ('out', 'Out')], max_length=5)),
                ('answered_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('night', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='answers', to='tables.gamenight')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('night', 'claim_hash'), name='one_answer_a_member')],
            },
        ),
        migrations.CreateModel(
            name='ChatMessage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('name', models.CharField(max_length=20)),
                ('text', models.CharField(blank=True, max_length=200)),
                ('reaction', models.CharField(blank=True, max_length=20)),
                ('event', models.CharField(blank=True, max_length=20)),
                ('detail', models.JSONField(blank=True, default=dict)),
                ('at', models.DateTimeField(default=django.utils.timezone.now)),
                ('deleted', models.BooleanField(default=False)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat', to='tables.table')),
            ],
            options={
                'ordering': ['table', 'at', 'id'],
                'indexes': [models.Index(fields=['table', 'at'], name='chat_by_table_time')],
            },
        ),
        migrations.AddIndex(
            model_name='gamenight',
            index=models.Index(fields=['group', 'starts_at'], name='nights_by_time'),
        ),
        migrations.AddIndex(
            model_name='groupgame',
            index=models.Index(fields=['group', 'added_at'], name='group_games_by_time'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.UniqueConstraint(fields=('table', 'number'), name='one_row_per_hand_number'),
        ),
        migrations.AddConstraint(
            model_name='pageinsight',
            constraint=models.UniqueConstraint(fields=('table', 'phone'), name='one_sight_per_phone'),
        ),
        migrations.AddConstraint(
            model_name='pushclaim',
            constraint=models.UniqueConstraint(fields=('subscription', 'claim_hash'), name='one_push_claim'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(fields=('table', 'position'), name='one_seat_per_position'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(('position__lt', 6)), name='position_0_to_5'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.UniqueConstraint(condition=models.Q(('status__in', ['waiting', 'playing'])), fields=('code',), name='unique_code_among_open_tables'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('seat_count__gte', 2), ('seat_count__lte', 6)), name='two_to_six_seats'),
        ),
    ]
