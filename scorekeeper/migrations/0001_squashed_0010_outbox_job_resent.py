"""The score-keeping app's tables as they stand after its first ten migrations, in one.

A new database is made from this migration alone. A database already migrated through
``0010_outbox_job_resent`` counts it as applied (``replaces``); one migrated only part of the
way must first be migrated to ``0010`` with the release before this migration came.
The data those migrations moved (standings of seasons already played, outbox jobs sent
before ``done_at``) has nothing to move in a new database, so only the cache table is made
here besides the tables.
"""

import django.db.models.deletion
from django.conf import settings
from django.core.management import call_command
from django.db import migrations, models


def create_cache_table(apps, schema_editor):
    """The database cache's table (the embedded default's shared cache), so ``migrate`` alone
    prepares a database. Does nothing when the cache is Redis."""
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ("scorekeeper", "0001_initial"),
        ("scorekeeper", "0002_table_links_and_drafts"),
        ("scorekeeper", "0003_game_revision_and_lock"),
        ("scorekeeper", "0004_cache_table"),
        ("scorekeeper", "0005_ratings_and_season_standings"),
        ("scorekeeper", "0006_club_life"),
        ("scorekeeper", "0007_deal_order_without_join"),
        ("scorekeeper", "0007_outbox_job"),
        ("scorekeeper", "0008_merge_0007_deal_order_without_join_0007_outbox_job"),
        ("scorekeeper", "0009_outbox_job_done"),
        ("scorekeeper", "0010_outbox_job_resent"),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120)),
                ('slug', models.SlugField(max_length=60, unique=True)),
                ('results_public', models.BooleanField(default=False, help_text="Anyone may read the club's standings without logging in.")),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='Game',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(choices=[('widow_whist', 'Widow whist'), ('third_hand', 'Third Hand'), ('italian_whist', 'Italian whist'), ('prediction_whist', 'Prediction whist')], max_length=30)),
                ('options', models.JSONField(default=dict, help_text='House rules as played (all resolved).')),
                ('first_dealer', models.PositiveSmallIntegerField(default=0)),
                ('status', models.CharField(choices=[('in_progress', 'In progress'), ('finished', 'Finished'), ('abandoned', 'Abandoned')], default='in_progress', max_length=12)),
                ('played_on', models.DateField()),
                ('ended_by_hand', models.BooleanField(default=False, help_text="Finished by a person rather than by the game's own end.")),
                ('deal_count', models.PositiveIntegerField(default=0)),
                ('revision', models.PositiveIntegerField(default=0, help_text='Goes up with every change a phone at the table should see: a deal, a bid, a correction, an undo, the end of the game, a lock or its release.')),
                ('locked_at', models.DateTimeField(blank=True, help_text='Since when the game takes no more changes.', null=True)),
                ('locked_reason', models.CharField(blank=True, help_text='Why it is locked, as shown to the table.', max_length=200)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('ended_at', models.DateTimeField(blank=True, null=True)),
                ('rated', models.BooleanField(default=True, help_text="Counts for the club's ratings once finished (a tournament may say its games do not).")),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='games', to='scorekeeper.club')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-played_on', '-id'],
            },
        ),
        migrations.CreateModel(
            name='OutboxJob',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('task', models.CharField(help_text="The Celery task's name.", max_length=200)),
                ('args', models.JSONField(default=list, help_text="The task's arguments (ids).")),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('sent_at', models.DateTimeField(blank=True, null=True)),
                ('done_at', models.DateTimeField(blank=True, help_text='When the task finished.', null=True)),
                ('retried_at', models.DateTimeField(blank=True, help_text='When someone last asked for it to be tried again.', null=True)),
                ('attempts', models.PositiveIntegerField(default=0, help_text='Hand-overs that failed.')),
                ('resent', models.PositiveIntegerField(default=0, help_text='Times the relay handed it over again, sent but not done (a broker that lost it in a restart, a worker that died holding it).')),
                ('error', models.CharField(blank=True, help_text='The last failure.', max_length=500)),
            ],
            options={
                'indexes': [models.Index(condition=models.Q(('sent_at__isnull', True)), fields=['created_at'], name='outbox_unsent'), models.Index(condition=models.Q(('done_at__isnull', True)), fields=['created_at'], name='outbox_not_done')],
                'constraints': [models.CheckConstraint(condition=models.Q(('task', ''), _negated=True), name='outbox_job_has_task')],
            },
        ),
        migrations.CreateModel(
            name='OutgoingEmail',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('to', models.JSONField(help_text="The recipients' addresses.")),
                ('subject', models.CharField(max_length=255)),
                ('body', models.TextField()),
                ('html', models.TextField(blank=True)),
                ('from_email', models.CharField(blank=True, max_length=255)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('sent_at', models.DateTimeField(blank=True, null=True)),
                ('attempts', models.PositiveIntegerField(default=0)),
            ],
            options={
                'indexes': [models.Index(condition=models.Q(('sent_at__isnull', True)), fields=['created_at'], name='email_unsent')],
            },
        ),
        migrations.CreateModel(
            name='Player',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('email', models.EmailField(blank=True, max_length=254)),
                ('active', models.BooleanField(default=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('claimed_by', models.ForeignKey(blank=True, help_text='A member who said "that\'s me", waiting for an admin to confirm.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='player_claims', to=settings.AUTH_USER_MODEL)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='players', to='scorekeeper.club')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='players', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='PlayerMerge',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('merged_name', models.CharField(max_length=100)),
                ('merged_player_id', models.PositiveIntegerField()),
                ('moved', models.JSONField(default=dict, help_text='Rows moved over, by kind.')),
                ('merged_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='player_merges', to='scorekeeper.club')),
                ('merged_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='merges', to='scorekeeper.player')),
            ],
        ),
        migrations.CreateModel(
            name='Rating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(choices=[('widow_whist', 'Widow whist'), ('third_hand', 'Third Hand'), ('italian_whist', 'Italian whist'), ('prediction_whist', 'Prediction whist')], max_length=30)),
                ('mu', models.FloatField()),
                ('sigma', models.FloatField()),
                ('shown', models.IntegerField(help_text='The conservative figure: 1000 + 40 × (μ − 3σ).')),
                ('games', models.PositiveIntegerField(default=0)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='scorekeeper.club')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='scorekeeper.player')),
            ],
            options={
                'ordering': ['-shown'],
            },
        ),
        migrations.CreateModel(
            name='RatingJob',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(choices=[('widow_whist', 'Widow whist'), ('third_hand', 'Third Hand'), ('italian_whist', 'Italian whist'), ('prediction_whist', 'Prediction whist')], max_length=30)),
                ('from_key', models.CharField(help_text='Games from this key on are rated again.', max_length=60)),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=10)),
                ('done', models.PositiveIntegerField(default=0)),
                ('total', models.PositiveIntegerField(default=0)),
                ('error', models.CharField(blank=True, max_length=500)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_jobs', to='scorekeeper.club')),
            ],
            options={
                'ordering': ['-id'],
            },
        ),
        migrations.CreateModel(
            name='Result',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('total', models.IntegerField(default=0)),
                ('placing', models.PositiveSmallIntegerField(help_text='1 for the top total; ties share.')),
                ('won', models.BooleanField(default=False)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to='scorekeeper.game')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='results', to='scorekeeper.player')),
            ],
            options={
                'ordering': ['game_id', 'position'],
            },
        ),
        migrations.CreateModel(
            name='Season',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('starts_on', models.DateField()),
                ('ends_on', models.DateField()),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='scorekeeper.club')),
            ],
            options={
                'ordering': ['-starts_on'],
            },
        ),
        migrations.CreateModel(
            name='RatingChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(choices=[('widow_whist', 'Widow whist'), ('third_hand', 'Third Hand'), ('italian_whist', 'Italian whist'), ('prediction_whist', 'Prediction whist')], max_length=30)),
                ('key', models.CharField(max_length=60)),
                ('played_on', models.DateField()),
                ('placing', models.PositiveSmallIntegerField()),
                ('mu_before', models.FloatField()),
                ('sigma_before', models.FloatField()),
                ('mu_after', models.FloatField()),
                ('sigma_after', models.FloatField()),
                ('shown_before', models.IntegerField()),
                ('shown_after', models.IntegerField()),
                ('games', models.PositiveIntegerField(help_text="The player's rated games of the type so far.")),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scorekeeper.club')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='scorekeeper.game')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='scorekeeper.player')),
                ('season', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scorekeeper.season')),
            ],
            options={
                'ordering': ['key', 'player_id'],
            },
        ),
        migrations.AddField(
            model_name='game',
            name='season',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='games', to='scorekeeper.season'),
        ),
        migrations.CreateModel(
            name='SeasonStanding',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(blank=True, max_length=30)),
                ('games', models.PositiveIntegerField(default=0)),
                ('wins', models.PositiveIntegerField(default=0)),
                ('total', models.IntegerField(default=0)),
                ('deals', models.PositiveIntegerField(default=0)),
                ('placing_sum', models.PositiveIntegerField(default=0)),
                ('rating', models.IntegerField(blank=True, null=True)),
                ('rating_change', models.IntegerField(blank=True, null=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scorekeeper.player')),
                ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='scorekeeper.season')),
            ],
        ),
        migrations.CreateModel(
            name='Seat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='scorekeeper.game')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='scorekeeper.player')),
            ],
            options={
                'ordering': ['game_id', 'position'],
            },
        ),
        migrations.CreateModel(
            name='TableLink',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token', models.CharField(max_length=64, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('revoked_at', models.DateTimeField(blank=True, null=True)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='table_links', to='scorekeeper.game')),
            ],
        ),
        migrations.CreateModel(
            name='DealRevision',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('version', models.PositiveIntegerField()),
                ('action', models.CharField(choices=[('record', 'Recorded'), ('correct', 'Corrected'), ('undo', 'Undone')], max_length=10)),
                ('record', models.JSONField()),
                ('scores', models.JSONField()),
                ('reason', models.CharField(blank=True, max_length=500)),
                ('changed_by_name', models.CharField(blank=True, max_length=100)),
                ('changed_at', models.DateTimeField(auto_now_add=True)),
                ('changed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='revisions', to='scorekeeper.game')),
            ],
            options={
                'ordering': ['game_id', 'number', 'version', 'id'],
                'constraints': [models.UniqueConstraint(fields=('game', 'number', 'version', 'action'), name='revision_unique_version'), models.CheckConstraint(condition=models.Q(('action__in', ['record', 'correct', 'undo'])), name='revision_action_valid')],
            },
        ),
        migrations.CreateModel(
            name='DealDraft',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('data', models.JSONField(default=dict)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='drafts', to='scorekeeper.game')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game', 'number'), name='draft_unique_number')],
            },
        ),
        migrations.CreateModel(
            name='Deal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('record', models.JSONField(help_text='The deal record as entered (RULES.md).')),
                ('dealer', models.PositiveSmallIntegerField()),
                ('scores', models.JSONField(help_text="Each seat's score for the deal.")),
                ('totals', models.JSONField(help_text="Each seat's running total after the deal.")),
                ('context', models.JSONField(default=dict, help_text="The deal's context from the engine.")),
                ('version', models.PositiveIntegerField(default=1)),
                ('entered_by_name', models.CharField(blank=True, help_text='Who entered it through a table link.', max_length=100)),
                ('entered_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('entered_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deals', to='scorekeeper.game')),
            ],
            options={
                'ordering': ['game_id', 'number'],
                'constraints': [models.UniqueConstraint(fields=('game', 'number'), name='deal_unique_number'), models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='deal_number_positive'), models.CheckConstraint(condition=models.Q(('version__gte', 1)), name='deal_version_positive')],
            },
        ),
        migrations.CreateModel(
            name='IdempotencyKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=200)),
                ('request_hash', models.CharField(max_length=64)),
                ('response_status', models.PositiveSmallIntegerField()),
                ('response_body', models.JSONField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='idempotency_keys', to='scorekeeper.game')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game', 'key'), name='idempotency_unique_key')],
            },
        ),
        migrations.CreateModel(
            name='Invitation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token', models.CharField(max_length=43, unique=True)),
                ('role', models.CharField(choices=[('admin', 'Admin'), ('director', 'Director'), ('scorer', 'Scorer'), ('member', 'Member')], default='member', max_length=10)),
                ('email', models.EmailField(blank=True, max_length=254)),
                ('expires_at', models.DateTimeField()),
                ('max_uses', models.PositiveIntegerField(default=1)),
                ('uses', models.PositiveIntegerField(default=0)),
                ('revoked_at', models.DateTimeField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations', to='scorekeeper.club')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-created_at'],
                'constraints': [models.CheckConstraint(condition=models.Q(('role__in', ['admin', 'director', 'scorer', 'member'])), name='invitation_role_valid'), models.CheckConstraint(condition=models.Q(('max_uses__gte', 1)), name='invitation_uses_positive'), models.CheckConstraint(condition=models.Q(('uses__lte', models.F('max_uses'))), name='invitation_uses_within_limit')],
            },
        ),
        migrations.CreateModel(
            name='Membership',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('admin', 'Admin'), ('director', 'Director'), ('scorer', 'Scorer'), ('member', 'Member')], default='member', max_length=10)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='scorekeeper.club')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('club', 'user'), name='membership_unique_user'), models.CheckConstraint(condition=models.Q(('role__in', ['admin', 'director', 'scorer', 'member'])), name='membership_role_valid')],
            },
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='player_unique_name'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(condition=models.Q(('user__isnull', False)), fields=('club', 'user'), name='player_unique_user'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.CheckConstraint(condition=models.Q(('name', ''), _negated=True), name='player_name_not_empty'),
        ),
        migrations.AddIndex(
            model_name='rating',
            index=models.Index(fields=['club', 'game_type', '-shown'], name='scorekeeper_club_id_dfc659_idx'),
        ),
        migrations.AddConstraint(
            model_name='rating',
            constraint=models.UniqueConstraint(fields=('player', 'game_type'), name='rating_unique'),
        ),
        migrations.AddConstraint(
            model_name='rating',
            constraint=models.CheckConstraint(condition=models.Q(('sigma__gt', 0)), name='rating_sigma_positive'),
        ),
        migrations.AddIndex(
            model_name='ratingjob',
            index=models.Index(fields=['club', 'status'], name='scorekeeper_club_id_cdedd0_idx'),
        ),
        migrations.AddConstraint(
            model_name='result',
            constraint=models.UniqueConstraint(fields=('game', 'player'), name='result_unique_player'),
        ),
        migrations.AddConstraint(
            model_name='result',
            constraint=models.UniqueConstraint(fields=('game', 'position'), name='result_unique_position'),
        ),
        migrations.AddConstraint(
            model_name='result',
            constraint=models.CheckConstraint(condition=models.Q(('placing__gte', 1)), name='result_placing_positive'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='season_unique_name'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.CheckConstraint(condition=models.Q(('ends_on__gte', models.F('starts_on'))), name='season_dates_ordered'),
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(fields=['club', 'game_type', 'key'], name='scorekeeper_club_id_d639a2_idx'),
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(fields=['player', 'game_type', 'key'], name='scorekeeper_player__042d7d_idx'),
        ),
        migrations.AddConstraint(
            model_name='ratingchange',
            constraint=models.UniqueConstraint(fields=('game', 'player'), name='rating_change_unique'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['club', 'status'], name='scorekeeper_club_id_8b8129_idx'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['season'], name='scorekeeper_season__6c5342_idx'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('game_type__in', ['widow_whist', 'third_hand', 'italian_whist', 'prediction_whist'])), name='game_type_known'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['in_progress', 'finished', 'abandoned'])), name='game_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('status', 'in_progress'), ('ended_at__isnull', False), _connector='OR'), name='game_ended_has_time'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('locked_at__isnull', True), models.Q(('locked_reason', ''), _negated=True), _connector='OR'), name='game_lock_has_reason'),
        ),
        migrations.AddConstraint(
            model_name='seasonstanding',
            constraint=models.UniqueConstraint(fields=('season', 'game_type', 'player'), name='season_standing_unique'),
        ),
        migrations.AddConstraint(
            model_name='seasonstanding',
            constraint=models.CheckConstraint(condition=models.Q(('wins__lte', models.F('games'))), name='standing_wins_le_games'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(fields=('game', 'position'), name='seat_unique_position'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(fields=('game', 'player'), name='seat_unique_player'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(('position__lt', 6)), name='seat_position_range'),
        ),
        migrations.AddConstraint(
            model_name='tablelink',
            constraint=models.UniqueConstraint(condition=models.Q(('revoked_at__isnull', True)), fields=('game',), name='table_link_one_active'),
        ),
        migrations.RunPython(create_cache_table, migrations.RunPython.noop),
    ]
