"""Foreign keys whose lookups a unique constraint or an index already starting with the
same column serves lose their own index, and the game's second index on its season goes.
Only the indexes are dropped: the foreign keys stay as they are, not rebuilt over every
row (as in 0011)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


# (table, column, the index Django named for it)
INDEXES = [
    ("scorekeeper_game", "club_id", "scorekeeper_game_club_id_a9bafd08"),
    ("scorekeeper_invitationopened", "user_id", "scorekeeper_invitationopened_user_id_bba87018"),
    ("scorekeeper_membership", "club_id", "scorekeeper_membership_club_id_6e045bb9"),
    ("scorekeeper_player", "club_id", "scorekeeper_player_club_id_933d1419"),
    ("scorekeeper_rating", "club_id", "scorekeeper_rating_club_id_785d1186"),
    ("scorekeeper_rating", "player_id", "scorekeeper_rating_player_id_d05a6a25"),
    ("scorekeeper_ratingchange", "club_id", "scorekeeper_ratingchange_club_id_dac1a741"),
    ("scorekeeper_ratingchange", "game_id", "scorekeeper_ratingchange_game_id_86505a0e"),
    ("scorekeeper_ratingchange", "player_id", "scorekeeper_ratingchange_player_id_6a68bbac"),
    ("scorekeeper_ratingjob", "club_id", "scorekeeper_ratingjob_club_id_0d694208"),
    ("scorekeeper_season", "club_id", "scorekeeper_season_club_id_63301377"),
    ("scorekeeper_seasonstanding", "season_id", "scorekeeper_seasonstanding_season_id_0128824b"),
    ("scorekeeper_seat", "game_id", "scorekeeper_seat_game_id_8ca5b433"),
]


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeeper', '0016_discarded_game'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='game',
            name='scorekeeper_season__6c5342_idx',
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='game',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='games', to='scorekeeper.club'),
                ),
                migrations.AlterField(
                    model_name='invitationopened',
                    name='user',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='invitations_opened', to=settings.AUTH_USER_MODEL),
                ),
                migrations.AlterField(
                    model_name='membership',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='scorekeeper.club'),
                ),
                migrations.AlterField(
                    model_name='player',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='players', to='scorekeeper.club'),
                ),
                migrations.AlterField(
                    model_name='rating',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='scorekeeper.club'),
                ),
                migrations.AlterField(
                    model_name='rating',
                    name='player',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='scorekeeper.player'),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scorekeeper.club'),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='game',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='scorekeeper.game'),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='player',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='scorekeeper.player'),
                ),
                migrations.AlterField(
                    model_name='ratingjob',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_jobs', to='scorekeeper.club'),
                ),
                migrations.AlterField(
                    model_name='season',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='scorekeeper.club'),
                ),
                migrations.AlterField(
                    model_name='seasonstanding',
                    name='season',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='scorekeeper.season'),
                ),
                migrations.AlterField(
                    model_name='seat',
                    name='game',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='scorekeeper.game'),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{index}"',
                    reverse_sql=f'CREATE INDEX IF NOT EXISTS "{index}" ON "{table}" ("{column}")',
                )
                for table, column, index in INDEXES
            ],
        ),
    ]
