"""The table's keys and how values are packed into its items (DynamoDB's typed JSON).

pk MATCH#<id>   sk META                      the match header (JSON: players, settings, clock)
                                             + the attributes conditions test, the actors
                                             done with the open phase (`done`, for early
                                             close), the waiting machine's task token, the
                                             last phase announced
                sk STATE                     the game state and the result (zlib-compressed JSON),
                                             written only by the match's creation and resolutions
                sk SUB#<player>              the participant's submissions to the phase it names:
                                             per kind, the submission and the garnets it holds
                sk DELIVERY#<player>#<key>   a delivery's reply (webhook or mail; expires after a week)
                sk HOOK#<target>             a webhook subscription: URL and signing secret (none once
                                             removed); who has one is on the header (aws/webhooks.py)
                sk ANSWERED#<mail id>        a received mail has been answered (expires after a week)
                sk BOUNCED#<player>#<mail id> a bounce of the participant's mail: when, its status
                                             code and diagnostic (kept with the match); `refused`
                                             when SES refused to send it (#refused-<SES code>)
                sk PURSE#<guest>             a guest's garnets while the match runs (balance,
                                             available, as a player's GARNETS)
                sk ACTION#<number>#<version> an immediate action taken in the phase, with its
                                             arrival time (gathered into the phase's record)
                sk PHASE#<number>            the phase's record (replay input)
                sk EVENT#SEQ#<number>        the append-only event log, numbered in the order it
                                             was stored (log.py; entries written before the
                                             numbers, EVENT#<time>#<nonce>, sort first)
                sk SEQ#EVENT                 the log's last number (`last`)
                (EVENT# to META holds the log, the HOOK# items and the header alone: the
                messages page reads them in one Query, `Matches.header_and_events`; a new
                item keyed in that range would be read, and billed, by every view of it)
pk PLAYER#<id>  sk GARNETS                   the player's balance, carried across matches, and what
                                             of it is available (the balance less every garnet held
                                             by a submission waiting for its phase to resolve)
                sk LEDGER#<match>#<entry>    one entry per spending or award
                sk PROFILE                   the contact the id was registered with (ids are
                                             unique in a deployment: the ledger keys on them)
pk SEASON#<id>  sk META                      the season: its settings and its carried state (JSON),
                                             its version (every write is conditional on it) and
                                             stage (`service/season/lifecycle.py`)
                sk EVENT#SEQ#<number>        the season's event log, numbered as a match's
                sk SEQ#EVENT                 the log's last number
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

from game_core.match.model import Match

KEPT = 7 * 86_400
"""How long a delivery's reply, or a mail's answered mark, is kept for its redeliveries (the
table's TTL removes it)."""

_serialize = TypeSerializer().serialize
_deserialize = TypeDeserializer().deserialize


def typed(values: dict[str, Any]) -> dict[str, Any]:
    """Plain values as DynamoDB's typed attribute values."""
    return {key: _serialize(value) for key, value in values.items()}


def plain(item: dict[str, Any]) -> dict[str, Any]:
    """An item as read, as plain values."""
    return {key: _deserialize(value) for key, value in item.items()}


def key(pk: str, sk: str) -> dict[str, Any]:
    return typed({"pk": pk, "sk": sk})


def match_pk(match_id: str) -> str:
    return f"MATCH#{match_id}"


def season_pk(season_id: str) -> str:
    return f"SEASON#{season_id}"


def player_pk(player: str) -> str:
    return f"PLAYER#{player}"


def header_key(match_id: str) -> dict[str, Any]:
    return key(match_pk(match_id), "META")


def state_key(match_id: str) -> dict[str, Any]:
    return key(match_pk(match_id), "STATE")


def sheet_key(match_id: str, player: str) -> dict[str, Any]:
    return key(match_pk(match_id), f"SUB#{player}")


def delivery_key(match_id: str, player: str, delivery: str) -> dict[str, Any]:
    return key(match_pk(match_id), f"DELIVERY#{player}#{delivery}")


def answered_key(match_id: str, message: str) -> dict[str, Any]:
    return key(match_pk(match_id), f"ANSWERED#{message}")


def purse_key(match_id: str, guest: str) -> dict[str, Any]:
    return key(match_pk(match_id), f"PURSE#{guest}")


def garnets_key(player: str) -> dict[str, Any]:
    return key(player_pk(player), "GARNETS")


def profile_key(player: str) -> dict[str, Any]:
    return key(player_pk(player), "PROFILE")


def holding_key(match: Match, participant: str) -> dict[str, Any]:
    """Where a participant's garnets are: a guest's purse in the match, else the player's balance."""
    return purse_key(match.match_id, participant) if participant in match.guests else garnets_key(participant)


def expiration(at: datetime) -> int:
    """The epoch second the table's TTL drops an item kept for a week from `at`."""
    return int(at.timestamp()) + KEPT


def stamp(at: datetime) -> str:
    """A moment as the log's sort keys order it (microseconds, UTC)."""
    return at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
