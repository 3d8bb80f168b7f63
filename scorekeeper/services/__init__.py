"""The only write paths of the score-keeping core.

Every function is keyword-only and transactional, checks the caller's rights
first, and leaves nothing half-written when it refuses (it raises a
:class:`~scorekeeper.errors.ServiceError`). Deal writes lock the game row, so
two phones at one table are served one after the other.

One module a subject: :mod:`.clubs` (clubs, seasons), :mod:`.members` (roles,
invitations), :mod:`.roster` (players: linking, claims, merging), :mod:`.mail`, :mod:`.games`
(starting, finishing, abandoning, locking), :mod:`.deals` (recording, correcting, undoing,
bids) and :mod:`.table_links`; what they share is in :mod:`._base`. Callers import the
package: ``from scorekeeper import services``.
"""

from .clubs import (
    club_create,
    club_update,
    season_close,
    season_create,
    season_delete,
    season_kept_for,
    season_make_current,
    season_rename,
)
from .deals import DealRecorded, deal_correct, deal_draft_save, deal_record, deal_undo
from .games import (
    abandon_refused,
    game_abandon,
    game_discard,
    game_end_unfinished,
    game_ending_restore,
    game_finish,
    game_lock,
    game_start,
    game_unlock,
    games_touch,
)
from .members import (
    account_delete,
    invitation_accept,
    invitation_create,
    invitation_remember,
    invitation_revoke,
    membership_remove,
    membership_set,
)
from .roster import (
    player_claim,
    player_claim_decide,
    player_create,
    player_link,
    player_merge,
    player_update,
)
from .table_links import table_link_create, table_link_revoke

__all__ = [
    "DealRecorded",
    "account_delete",
    "club_create",
    "club_update",
    "deal_correct",
    "deal_draft_save",
    "deal_record",
    "deal_undo",
    "abandon_refused",
    "game_abandon",
    "game_end_unfinished",
    "game_ending_restore",
    "game_discard",
    "game_finish",
    "game_lock",
    "game_start",
    "game_unlock",
    "games_touch",
    "invitation_accept",
    "invitation_create",
    "invitation_remember",
    "invitation_revoke",
    "membership_remove",
    "membership_set",
    "player_claim",
    "player_claim_decide",
    "player_create",
    "player_link",
    "player_merge",
    "player_update",
    "season_close",
    "season_create",
    "season_delete",
    "season_kept_for",
    "season_make_current",
    "season_rename",
    "table_link_create",
    "table_link_revoke",
]
