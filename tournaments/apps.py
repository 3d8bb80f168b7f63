from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from scorekeeper import abandon_rules, deal_limits, revoked_links
        from scorekeeper.management import demo
        from scorekeeper.pages import panels

        from . import tasks  # noqa: F401  (the tasks register the services' jobs)
        from .demo import seed_tournament
        from .pages.views import confirm_panel
        from .revoked_links import explain_closed_round, explain_round_not_published
        from .selectors import abandon_refusal, deal_limit, finish_refusal

        panels.register(confirm_panel)
        # A table takes no deal after its round's last (time called, a round of N deals).
        deal_limits.register(deal_limit)
        # A table's game ends with its round, not abandoned by hand.
        abandon_rules.register(abandon_refusal)
        abandon_rules.register_finish(finish_refusal)
        demo.register_extra(seed_tournament)
        # A guest opening a table link of a closed round is told so (the core asks).
        revoked_links.register(explain_closed_round)
        revoked_links.register(explain_round_not_published)
