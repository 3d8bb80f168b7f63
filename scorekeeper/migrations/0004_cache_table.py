"""The table of the database cache (the embedded default's shared cache: rate limits), so
``migrate`` alone prepares a database. Does nothing when the cache is Redis."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0003_game_revision_and_lock")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
