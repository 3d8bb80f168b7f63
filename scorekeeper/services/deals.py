"""Deals: recording one (idempotent), correcting, undoing; prediction whist's bids."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from rules_engine import RuleError

from .. import locks, models, rows
from ..access import Actor, actor_device, actor_name
from ..errors import Conflict, IdempotencyMismatch, InvalidInput, NotFound, StaleVersion
from ..models import Deal, Game, GameStatus, RevisionAction
from ..scoring import empty_sheet, invalid_from_rule, sheet_after_last_deal, sheet_resumed
from ..selectors import deal_payload, entered_by, next_deal_of, player_names_of
from ._base import (
    MAX_REASON,
    check_writable,
    guest_name,
    locked_for_scoring,
    seats_of,
    sync_results,
    touch,
    user_of,
)


def _fingerprint(number: int, record: Any) -> str:
    body = json.dumps({"number": number, "record": record}, sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()


@dataclass(frozen=True)
class DealRecorded:
    """The answer to a deal submission; ``replayed`` when an idempotency key repeated it."""

    payload: dict[str, Any]
    replayed: bool
    deal: Deal | None = None


def deal_record(
    *,
    actor: Actor,
    game: Game,
    number: int,
    record: Mapping[str, Any],
    idempotency_key: str | None = None,
) -> DealRecorded:
    """Record deal ``number`` of the game.

    A repeat with the same idempotency key and the same deal returns the first
    answer; the same key with another deal is refused. A number already
    recorded, or not the next one, is refused with the deal already there.
    """
    record = {key: value for key, value in record.items() if key != "number"}
    fingerprint = _fingerprint(number, record)
    # A caller that read the game locked, in a transaction of its own, gives that
    # transaction to this write: no savepoint (a refusal undoes it all, as it should).
    with transaction.atomic(savepoint=not locks.held(game)):
        game = locked_for_scoring(game, actor, "record deals")
        next_deal = next_deal_of(game, idempotency_key=idempotency_key)
        if idempotency_key and next_deal.key_fingerprint is not None:
            if next_deal.key_fingerprint != fingerprint:
                raise IdempotencyMismatch(
                    "this Idempotency-Key was already used for a different deal",
                    field="Idempotency-Key",
                )
            earlier = models.IdempotencyKey.objects.get(game=game, key=idempotency_key)
            return DealRecorded(payload=earlier.response_body, replayed=True)
        check_writable(game)
        expected = game.deal_count + 1
        if number != expected:
            there = (
                Deal.objects.filter(game=game, number=number).select_related("entered_by").first()
            )
            if there is not None:
                who = entered_by(there)
                raise Conflict(
                    f"deal {number} is already recorded (by {who})",
                    field="number",
                    deal=number,
                    details={"deal": deal_payload(there), "next_number": expected},
                )
            if game.status == GameStatus.FINISHED:
                raise Conflict("the game is finished; it takes no more deals", field="number")
            raise Conflict(
                f"the next deal is {expected}; deal {number} cannot be recorded yet",
                field="number",
                deal=number,
                details={"next_number": expected},
            )
        if game.status == GameStatus.FINISHED:
            raise Conflict("the game is finished; it takes no more deals", field="number")
        sheet = sheet_resumed(game, player_names_of(game), next_deal.last)
        try:
            scored = sheet.add(record)
        except RuleError as error:
            raise invalid_from_rule(error) from None
        user = user_of(actor)
        # The deal's rows and the game's are written in one statement (PostgreSQL).
        writes = rows.Batch()
        deal = writes.insert(
            Deal(
                game=game,
                number=number,
                # A number recorded again after an undo carries on its version count.
                version=next_deal.version,
                record=record,
                dealer=scored.dealer,
                scores=list(scored.scores),
                totals=list(scored.totals),
                context=dict(scored.context),
                entered_by=user,
                entered_by_name=guest_name(actor),
            )
        )
        writes.insert(_revision(game, deal, RevisionAction.RECORD, actor))
        if next_deal.has_draft:
            writes.delete(models.DealDraft, game=game.pk, number=number)
        payload = deal_payload(deal)
        if idempotency_key:
            writes.insert(
                models.IdempotencyKey(
                    game=game,
                    key=idempotency_key,
                    request_hash=fingerprint,
                    response_status=201,
                    response_body=payload,
                )
            )
        sync_results(game, sheet, writes=writes)
    return DealRecorded(payload=payload, replayed=False, deal=deal)


def _revision(
    game: Game, deal: Deal, action: RevisionAction, actor: Actor, reason: str = ""
) -> models.DealRevision:
    """The history's row (unsaved) for what ``action`` made of ``deal``, as it now stands:
    its version, record and scores, who did it and why."""
    return models.DealRevision(
        game=game,
        number=deal.number,
        version=deal.version,
        action=action,
        record=deal.record,
        scores=deal.scores,
        reason=reason,
        changed_by=user_of(actor),
        changed_by_name=actor_name(actor),
        changed_by_device=actor_device(actor),
    )


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise InvalidInput("say why the deal is corrected", field="reason")
    if len(reason) > MAX_REASON:
        raise InvalidInput(f"a reason has at most {MAX_REASON} characters", field="reason")
    return reason


@transaction.atomic
def deal_correct(
    *,
    actor: Actor,
    game: Game,
    number: int,
    record: Mapping[str, Any],
    reason: str,
    expected_version: int | None = None,
) -> Deal:
    """Correct deal ``number``, rescoring every later deal (the next dealer, the end of
    the game may move). Refused, naming the deal, if a later deal becomes impossible."""
    record = {key: value for key, value in record.items() if key != "number"}
    game = locked_for_scoring(game, actor, "correct deals")
    check_writable(game)
    reason = _reason(reason)
    deals = list(game.deals.order_by("number"))
    if not 1 <= number <= len(deals):
        raise NotFound(f"the game has no deal {number}")
    target = deals[number - 1]
    if expected_version is not None and target.version != expected_version:
        raise StaleVersion(
            f"deal {number} is at version {target.version}, not {expected_version}: "
            "someone corrected it meanwhile",
            deal=number,
            details={"deal": deal_payload(target)},
        )
    if record == target.record:
        # A new version that changes nothing would only fill the deal's history.
        raise Conflict(
            f"deal {number} is already recorded like this: change what was wrong, then save",
            deal=number,
        )
    records = [deal.record for deal in deals]
    records[number - 1] = record
    sheet = empty_sheet(game, seats_of(game))
    for index, item in enumerate(records):
        try:
            sheet.add(item)
        except RuleError as error:
            if index == number - 1:
                raise invalid_from_rule(error) from None
            raise invalid_from_rule(
                error, prefix=f"this correction would make deal {index + 1} impossible: "
            ) from None
    for deal, scored in zip(deals[number - 1 :], sheet.deals[number - 1 :], strict=True):
        deal.dealer = scored.dealer
        deal.scores = list(scored.scores)
        deal.totals = list(scored.totals)
        deal.context = dict(scored.context)
    target.record = record
    target.version += 1
    Deal.objects.bulk_update(
        deals[number - 1 :], ["dealer", "scores", "totals", "context", "record", "version"]
    )
    _revision(game, target, RevisionAction.CORRECT, actor, reason).save(force_insert=True)
    if game.status == GameStatus.FINISHED and game.ended_by_hand and sheet.finished:
        game.ended_by_hand = False
    sync_results(game, sheet)
    target.refresh_from_db()
    return target


@transaction.atomic
def deal_undo(
    *, actor: Actor, game: Game, reason: str = "", expected_number: int | None = None
) -> int:
    """Take back the last deal (its history stays). Returns the number undone.

    With ``expected_number`` (the last deal as the caller saw it), a page or client
    that is behind cannot undo a deal it has not seen.
    """
    game = locked_for_scoring(game, actor, "undo deals")
    check_writable(game)
    if game.ended_by_hand:
        raise Conflict("the game was finished by hand; it takes no more changes")
    last = game.deals.order_by("-number").first()
    if last is None:
        raise Conflict("the game has no deal to undo")
    if expected_number is not None and last.number != expected_number:
        raise Conflict(
            f"deal {expected_number} is not the last deal any more; nothing was undone",
            deal=expected_number,
        )
    _revision(game, last, RevisionAction.UNDO, actor, reason.strip()[:MAX_REASON]).save(
        force_insert=True
    )
    number = last.number
    last.delete()
    sync_results(game, sheet_after_last_deal(game, seats_of(game), last_number=number - 1))
    return number


@transaction.atomic
def deal_draft_save(
    *, actor: Actor, game: Game, number: int, data: Mapping[str, Any]
) -> models.DealDraft:
    """Keep what is known of the next deal before it is played out (e.g. bids entered
    before play), as the game's engine checks it (``Game.check_draft``)."""
    game = locked_for_scoring(game, actor, "enter bids")
    check_writable(game)
    if game.status != GameStatus.IN_PROGRESS or number != game.deal_count + 1:
        raise Conflict(f"deal {number} is not the next deal of this game", field="number")
    sheet = sheet_after_last_deal(game, seats_of(game))
    context = sheet.next_deal
    assert context is not None
    try:
        kept = sheet.game.check_draft(sheet.table, context, data)
    except RuleError as error:
        raise invalid_from_rule(error) from None
    draft, _ = models.DealDraft.objects.update_or_create(
        game=game, number=number, defaults={"data": kept}
    )
    touch(game)
    return draft
