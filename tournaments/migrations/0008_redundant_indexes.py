"""Foreign keys whose lookups a unique constraint or an index already starting with the
same column serves lose their own index. Only the indexes are dropped: the foreign
keys stay as they are, not rebuilt over every row (as in 0011)."""

import django.db.models.deletion
from django.db import migrations, models


# (table, column, the index Django named for it)
INDEXES = [
    ("tournaments_registration", "tournament_id", "tournaments_registration_tournament_id_c29e06a6"),
    ("tournaments_round", "tournament_id", "tournaments_round_tournament_id_a359f4ed"),
    ("tournaments_roundplayer", "round_id", "tournaments_roundplayer_round_id_31287761"),
    ("tournaments_roundplayer", "table_id", "tournaments_roundplayer_table_id_b1b3cb7b"),
    ("tournaments_standing", "tournament_id", "tournaments_standing_tournament_id_26205d53"),
    ("tournaments_table", "round_id", "tournaments_table_round_id_88f9c8ac"),
    ("tournaments_tournament", "club_id", "tournaments_tournament_club_id_de87b47a"),
]


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeeper', '0017_redundant_indexes'),
        ('tournaments', '0007_tables_games_not_kept_by_starter'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='registration',
                    name='tournament',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='registrations', to='tournaments.tournament'),
                ),
                migrations.AlterField(
                    model_name='round',
                    name='tournament',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='tournaments.tournament'),
                ),
                migrations.AlterField(
                    model_name='roundplayer',
                    name='round',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='players', to='tournaments.round'),
                ),
                migrations.AlterField(
                    model_name='roundplayer',
                    name='table',
                    field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='tournaments.table'),
                ),
                migrations.AlterField(
                    model_name='standing',
                    name='tournament',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.tournament'),
                ),
                migrations.AlterField(
                    model_name='table',
                    name='round',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='tables', to='tournaments.round'),
                ),
                migrations.AlterField(
                    model_name='tournament',
                    name='club',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='tournaments', to='scorekeeper.club'),
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
