"""``manage.py seed_demo``: demo data for development (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scorekeeper.management.demo import CLUB_NAME, PASSWORD, USERS, seed, seed_extras


class Command(BaseCommand):
    help = (
        f"Create the demo club {CLUB_NAME!r}, its users, players, season and games, "
        "through the services. Running it again changes nothing."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        seeded = seed()
        seed_extras(seeded)
        if seeded.created:
            self.stdout.write(f"Demo data created in {seeded.club.name}:")
            for item in seeded.created:
                self.stdout.write(f"  + {item}")
        else:
            self.stdout.write(f"Demo data already present ({seeded.club.name}); nothing changed.")
        users = ", ".join(f"{name} ({role})" for name, (role, _) in USERS.items())
        self.stdout.write(f"Users (password {PASSWORD!r} for each): {users}")
        self.stdout.write("Sign in at http://127.0.0.1:8000/ as demo / demo (admin: /admin/)")
        self.stdout.write("API docs: http://127.0.0.1:8000/api/docs/")
