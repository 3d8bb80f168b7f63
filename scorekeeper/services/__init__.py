"""The only write paths of the score-keeping core.

Every function is keyword-only and transactional, checks the caller's rights
first, and leaves nothing half-written when it refuses (it raises a
:class:`~scorekeeper.errors.ServiceError`). Deal writes lock the game row, so
two phones at one table are served one after the other.

One module a subject: :mod:`.clubs` (clubs, people, players, seasons), :mod:`.games`
(starting, finishing, abandoning, locking), :mod:`.deals` (recording, correcting, undoing,
bids) and :mod:`.table_links`; what they share is in :mod:`._base`. Callers import the
package: ``from scorekeeper import services``.
"""

from .clubs import club_create, membership_set, player_create, season_create
from .deals import DealRecorded, deal_correct, deal_draft_save, deal_record, deal_undo
from .games import game_abandon, game_finish, game_lock, game_start, game_unlock
from .table_links import table_link_create, table_link_revoke

__all__ = [
    "DealRecorded",
    "club_create",
    "deal_correct",
    "deal_draft_save",
    "deal_record",
    "deal_undo",
    "game_abandon",
    "game_finish",
    "game_lock",
    "game_start",
    "game_unlock",
    "membership_set",
    "player_create",
    "season_create",
    "table_link_create",
    "table_link_revoke",
]
