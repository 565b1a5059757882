"""The season machine's stages: what its Choice routes on, each a state of the season's ASL
(cli/season_asl.py). The season's step (service/season/machine.py) says which stage the season
is in from what it waits on; the ASL is written from these names, so the two cannot drift."""

from __future__ import annotations

MAIN_MATCH = "Main Match"
"""The episode's Main Match runs: the season waits for its result."""
NAMING = "Naming"
"""ECs spend a ToL or name an opponent; silence passes the pick to the host, then to a lot."""
HOST = "Host decides"
"""A tie only the host can break (a Death Match's, the next-lowest's, the champion's)."""
DEATH_MATCHES = "Death Matches"
"""The episode's Death Matches run together (the ASL's Map, one iteration each)."""
FINALS = "Finals"
"""The final match runs: its winner is the champion."""
SEASON_OVER = "Season over"
SEASON_CANCELLED = "Season cancelled"

MATCH_WAITS = (MAIN_MATCH, FINALS)
"""Stages that wait on one match (started by the step), woken when it ends."""
TIMED_WAITS = (NAMING, HOST)
"""Stages that wait on people until a deadline (or a reminder), woken by their act."""
ENDS = (SEASON_OVER, SEASON_CANCELLED)
STAGES = (*MATCH_WAITS, *TIMED_WAITS, DEATH_MATCHES, *ENDS)

MATCH_STALLED = "MatchStalled"
"""The error a season's wait ends with when its match's execution stalled: the season stalls too
(never retried: the host recovers the season, which recovers the match)."""
