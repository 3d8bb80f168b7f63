from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from scorekeeper.management import demo
        from scorekeeper.pages import panels

        from .demo import seed_tournament
        from .pages.views import confirm_panel

        panels.register(confirm_panel)
        demo.register_extra(seed_tournament)
