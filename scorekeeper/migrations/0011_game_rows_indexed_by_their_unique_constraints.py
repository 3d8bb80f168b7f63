"""The game's deals, revisions, results, idempotency keys and drafts lose their own index
on the game: each table's unique constraint starts with the game and serves the same
lookups, and every deal saved wrote the extra entries for nothing. Only the indexes are
dropped (the foreign keys stay as they are, not rebuilt over every row)."""

import django.db.models.deletion
from django.db import migrations, models

# (model, related name, table, the index Django named for its game column)
TABLES = [
    ("deal", "deals", "scorekeeper_deal", "scorekeeper_deal_game_id_3f638e4c"),
    ("dealdraft", "drafts", "scorekeeper_dealdraft", "scorekeeper_dealdraft_game_id_37435390"),
    (
        "dealrevision",
        "revisions",
        "scorekeeper_dealrevision",
        "scorekeeper_dealrevision_game_id_45baf43d",
    ),
    (
        "idempotencykey",
        "idempotency_keys",
        "scorekeeper_idempotencykey",
        "scorekeeper_idempotencykey_game_id_12ee2d74",
    ),
    ("result", "results", "scorekeeper_result", "scorekeeper_result_game_id_d4e51cdb"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0001_squashed_0010_outbox_job_resent"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name=model,
                    name="game",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name=related_name,
                        to="scorekeeper.game",
                    ),
                )
                for model, related_name, _table, _index in TABLES
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{index}"',
                    reverse_sql=f'CREATE INDEX IF NOT EXISTS "{index}" ON "{table}" ("game_id")',
                )
                for _model, _related_name, table, index in TABLES
            ],
        ),
    ]
