"""The tournament app's tables as they stand after its first five migrations, in one.

A new database is made from this migration alone; a database migrated through
``0005_announcements`` counts it as applied (``replaces``).
"""

import django.db.models.deletion
import tournaments.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ("tournaments", "0001_initial"),
        ("tournaments", "0002_table_reopen"),
        ("tournaments", "0003_registration_check_out"),
        ("tournaments", "0004_tournament_rated"),
        ("tournaments", "0005_announcements"),
    ]

    dependencies = [
        ('scorekeeper', '0001_squashed_0010_outbox_job_resent'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Round',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('status', models.CharField(choices=[('seating', 'Being seated'), ('seated', 'Seated (not published)'), ('playing', 'Playing'), ('closed', 'Closed')], default='seating', max_length=8)),
                ('seating_method', models.CharField(choices=[('new_opponents', 'New opponents'), ('standings', 'By standings (Swiss)'), ('random', 'Random')], max_length=16)),
                ('seating_status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=8)),
                ('seating_progress', models.PositiveSmallIntegerField(default=0, help_text='0 to 100.')),
                ('seating_error', models.CharField(blank=True, max_length=500)),
                ('seated_at', models.DateTimeField(blank=True, null=True)),
                ('published_at', models.DateTimeField(blank=True, null=True)),
                ('time_called_at', models.DateTimeField(blank=True, help_text='Time rounds: when time is called (finish the deal).', null=True)),
                ('deadline', models.DateTimeField(blank=True, help_text='Time rounds: when the round closes by itself.', null=True)),
                ('time_called', models.BooleanField(default=False)),
                ('closed_at', models.DateTimeField(blank=True, null=True)),
                ('close_reason', models.CharField(blank=True, choices=[('confirmed', 'Every table confirmed'), ('director', 'Closed by the director'), ('time', 'Time limit')], max_length=10)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('closed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['tournament', 'number'],
            },
        ),
        migrations.CreateModel(
            name='Table',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('size', models.PositiveSmallIntegerField()),
                ('first_dealer', models.PositiveSmallIntegerField(default=0)),
                ('deal_limit', models.PositiveIntegerField(blank=True, help_text='Deals the round allows at this table, where the game does not end by itself (a round of N deals; a time round once time is called: the deal in progress).', null=True)),
                ('confirmed_at', models.DateTimeField(blank=True, null=True)),
                ('confirmed_by_name', models.CharField(blank=True, max_length=120)),
                ('unfinished', models.BooleanField(default=False, help_text='The round was closed before the table finished.')),
                ('reopened_at', models.DateTimeField(blank=True, null=True)),
                ('reopened_by_name', models.CharField(blank=True, max_length=120)),
                ('reopen_reason', models.CharField(blank=True, max_length=500)),
                ('confirmed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournament_table', to='scorekeeper.game')),
                ('reopened_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tables', to='tournaments.round')),
            ],
            options={
                'ordering': ['round', 'number'],
            },
        ),
        migrations.CreateModel(
            name='RoundPlayer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('score', models.IntegerField(blank=True, help_text='Game score, once closed.', null=True)),
                ('points', models.DecimalField(blank=True, decimal_places=3, max_digits=10, null=True)),
                ('table_win', models.BooleanField(default=False)),
                ('notified_at', models.DateTimeField(blank=True, null=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='round_places', to='scorekeeper.player')),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='players', to='tournaments.round')),
                ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='tournaments.table')),
            ],
            options={
                'ordering': ['round', 'table__number', 'position'],
            },
        ),
        migrations.CreateModel(
            name='Tournament',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120)),
                ('game_type', models.CharField(choices=[('widow_whist', 'Widow whist'), ('third_hand', 'Third Hand'), ('italian_whist', 'Italian whist'), ('prediction_whist', 'Prediction whist')], max_length=30)),
                ('options', models.JSONField(default=dict, help_text='House rules, resolved by the engine.')),
                ('rounds_planned', models.PositiveSmallIntegerField()),
                ('round_kind', models.CharField(choices=[('deals', 'A number of deals'), ('game', 'A whole game'), ('time', 'A time limit (finish the deal in progress)')], max_length=8)),
                ('round_deals', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('round_minutes', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('grace_minutes', models.PositiveSmallIntegerField(default=10, help_text='Time rounds: minutes after time is called to finish the deal.')),
                ('seating_method', models.CharField(choices=[('new_opponents', 'New opponents'), ('standings', 'By standings (Swiss)'), ('random', 'Random')], default='new_opponents', max_length=16)),
                ('table_size', models.PositiveSmallIntegerField(help_text='The preferred table size.')),
                ('mixed_sizes', models.BooleanField(default=False, help_text='Prediction whist: mixed table sizes rather than byes.')),
                ('rated', models.BooleanField(default=True, help_text="Its games count for the club's ratings like any other.")),
                ('points_system', models.CharField(choices=[('opponents', '1 per opponent outscored, ½ per tie, ÷ (table size − 1)'), ('placing', 'A placing table (e.g. 3/1/0)'), ('score', 'Raw game score')], default='opponents', max_length=10)),
                ('placing_points', models.JSONField(blank=True, default=tournaments.models._default_placing)),
                ('tie_breaks', models.JSONField(blank=True, default=tournaments.models._default_tie_breaks)),
                ('bye_score', models.CharField(choices=[('average', "The round's average"), ('fixed', 'A fixed amount')], default='average', max_length=8)),
                ('bye_points', models.DecimalField(decimal_places=3, default=0, max_digits=8)),
                ('status', models.CharField(choices=[('open', 'Open (no round yet)'), ('running', 'Running'), ('finished', 'Finished')], default='open', max_length=10)),
                ('played_on', models.DateField()),
                ('standings_updated_at', models.DateTimeField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tournaments', to='scorekeeper.club')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('season', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournaments', to='scorekeeper.season')),
            ],
            options={
                'ordering': ['-played_on', '-id'],
            },
        ),
        migrations.CreateModel(
            name='Standing',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rank', models.PositiveSmallIntegerField()),
                ('points', models.DecimalField(decimal_places=3, max_digits=10)),
                ('game_score', models.IntegerField()),
                ('opponents_points', models.DecimalField(decimal_places=3, help_text="Opponents' average tournament points.", max_digits=10)),
                ('table_wins', models.PositiveSmallIntegerField()),
                ('rounds_played', models.PositiveSmallIntegerField()),
                ('byes', models.PositiveSmallIntegerField()),
                ('round_points', models.JSONField(default=list, help_text='Points per round (null: absent).')),
                ('withdrawn', models.BooleanField(default=False)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='scorekeeper.player')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['tournament', 'rank', 'player__name'],
            },
        ),
        migrations.AddField(
            model_name='round',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='tournaments.tournament'),
        ),
        migrations.CreateModel(
            name='Registration',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('active', 'Active'), ('withdrawn', 'Withdrawn')], default='active', max_length=10)),
                ('checked_in_round', models.PositiveSmallIntegerField(blank=True, help_text='The round from which the player is checked in: they stay present for later rounds until they check out (null: not checked in).', null=True)),
                ('checked_out_round', models.PositiveSmallIntegerField(blank=True, help_text='The round from which the player checked out.', null=True)),
                ('late', models.BooleanField(default=False, help_text='Registered after round 1 was seated.')),
                ('registered_at', models.DateTimeField(auto_now_add=True)),
                ('withdrawn_at', models.DateTimeField(blank=True, null=True)),
                ('withdrawn_after_round', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='registrations', to='scorekeeper.player')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='registrations', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['tournament', 'player__name'],
            },
        ),
        migrations.CreateModel(
            name='Announcement',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('text', models.CharField(max_length=300)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='announcements', to='tournaments.tournament')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.UniqueConstraint(fields=('round', 'number'), name='table_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='table_number_positive'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('size__gte', 2), ('size__lte', 6)), name='table_size_range'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('first_dealer__lt', models.F('size'))), name='table_first_dealer_seat'),
        ),
        migrations.AddConstraint(
            model_name='roundplayer',
            constraint=models.UniqueConstraint(fields=('round', 'player'), name='round_player_unique'),
        ),
        migrations.AddConstraint(
            model_name='roundplayer',
            constraint=models.UniqueConstraint(fields=('table', 'position'), name='round_player_unique_seat'),
        ),
        migrations.AddConstraint(
            model_name='roundplayer',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('position__isnull', True), ('table__isnull', True)), models.Q(('position__isnull', False), ('position__lt', 6), ('table__isnull', False)), _connector='OR'), name='round_player_seat_or_bye'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='tournament_unique_name'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('rounds_planned__gte', 1), ('rounds_planned__lte', 50)), name='tournament_rounds_range'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('table_size__gte', 2), ('table_size__lte', 6)), name='tournament_table_size_range'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('round_kind', 'deals'), _negated=True), ('round_deals__gte', 1), _connector='OR'), name='tournament_deals_round_has_deals'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('round_kind', 'time'), _negated=True), ('round_minutes__gte', 1), _connector='OR'), name='tournament_time_round_has_minutes'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('round_kind__in', ['deals', 'game', 'time'])), name='tournament_round_kind_valid'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['open', 'running', 'finished'])), name='tournament_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='standing',
            constraint=models.UniqueConstraint(fields=('tournament', 'player'), name='standing_unique_player'),
        ),
        migrations.AddConstraint(
            model_name='standing',
            constraint=models.CheckConstraint(condition=models.Q(('rank__gte', 1)), name='standing_rank_positive'),
        ),
        migrations.AddIndex(
            model_name='round',
            index=models.Index(fields=['status', 'deadline'], name='tournaments_status_f8aebe_idx'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='round_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1), ('number__lte', 50)), name='round_number_range'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('seating_progress__lte', 100)), name='round_progress_range'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['seating', 'seated', 'playing', 'closed'])), name='round_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('seating_status__in', ['queued', 'running', 'done', 'failed'])), name='round_seating_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'closed'), _negated=True), ('closed_at__isnull', False), _connector='OR'), name='round_closed_has_time'),
        ),
        migrations.AddConstraint(
            model_name='registration',
            constraint=models.UniqueConstraint(fields=('tournament', 'player'), name='registration_unique_player'),
        ),
        migrations.AddConstraint(
            model_name='registration',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['active', 'withdrawn'])), name='registration_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='registration',
            constraint=models.CheckConstraint(condition=models.Q(('checked_in_round__isnull', True), ('checked_in_round__gte', 1), _connector='OR'), name='registration_check_in_round_positive'),
        ),
        migrations.AddConstraint(
            model_name='registration',
            constraint=models.CheckConstraint(condition=models.Q(('checked_out_round__isnull', True), ('checked_out_round__gte', 1), _connector='OR'), name='registration_check_out_round_positive'),
        ),
        migrations.AddConstraint(
            model_name='announcement',
            constraint=models.CheckConstraint(condition=models.Q(('text', ''), _negated=True), name='announcement_has_text'),
        ),
    ]
