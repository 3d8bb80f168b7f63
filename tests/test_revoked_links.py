"""The registry of revoked-link explainers: the core asks, other apps answer (the core
never imports them)."""

from __future__ import annotations

from pathlib import Path

from django.test import RequestFactory

from scorekeeper import revoked_links
from scorekeeper.models import TableLink
from scorekeeper.revoked_links import Explanation
from tournaments.revoked_links import explain_closed_round, explain_round_not_published


def test_tournaments_register_their_explainers_when_the_app_is_ready() -> None:
    assert explain_closed_round in revoked_links._explainers
    assert explain_round_not_published in revoked_links._explainers


def test_the_first_answer_wins_and_a_failing_explainer_is_skipped() -> None:
    request = RequestFactory().get("/")
    link = TableLink(pk=1, game_id=1, token="t")

    def broken(request, token, link):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    def answers(request, token, link):  # type: ignore[no-untyped-def]
        return Explanation(title="Closed", message=f"link {token}")

    before = list(revoked_links._explainers)
    for explainer in before:
        revoked_links.unregister(explainer)
    try:
        assert revoked_links.explain(request, "t", link) is None
        revoked_links.register(broken)
        revoked_links.register(answers)
        revoked_links.register(answers)  # once only
        assert list(revoked_links._explainers) == [broken, answers]
        assert revoked_links.explain(request, "t", link) == Explanation("Closed", "link t")
        revoked_links.unregister(answers)
        assert revoked_links.explain(request, "t", link) is None
    finally:
        for explainer in (broken, answers):
            revoked_links.unregister(explainer)
        for explainer in before:
            revoked_links.register(explainer)


def test_the_registry_and_the_table_link_page_do_not_import_tournaments() -> None:
    root = Path(__file__).resolve().parents[1] / "scorekeeper"
    for path in (root / "revoked_links.py", root / "pages" / "club_views.py"):
        imports = [
            line for line in path.read_text().splitlines() if line.startswith(("import", "from"))
        ]
        assert imports and not any("tournaments" in line for line in imports), path
