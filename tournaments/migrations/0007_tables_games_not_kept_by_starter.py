"""A tournament table's game is scored by the director's role, not by the director as the
one who started it: the games of tables already started say so too."""

from django.db import migrations


def tables_games(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    Table = apps.get_model("tournaments", "Table")
    games = Table.objects.filter(game__isnull=False).values("game_id")
    Game.objects.filter(pk__in=games).update(kept_by_starter=False)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0014_game_kept_by_starter"),
        ("tournaments", "0006_table_link_token"),
    ]

    operations = [migrations.RunPython(tables_games, migrations.RunPython.noop)]
