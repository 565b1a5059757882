"""An Elimination Candidate's acts by mail: `NAME bo` (or `NAME Ada Lovelace`), `SPEND TOL`,
`KEEP TOL`, each a line of its own in a mail to a match of the season (the Main Match whose result
made them EC, most likely by replying to it), from the address that match registered for them.

The sender is proven as for moves (SES's verdicts, the registered address: `mail_in`), so no
secret is asked; each act is `season.acts.ec_act_proven`, taken once (a redelivered mail, or the
same act sent again, changes nothing more). A greeting above the acts and a sign-off below them
are left unread and listed; a refused act is answered with what is wrong, in words, and what was
done before it in the mail stands. A mail to a match no season waits on is none of this module's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from game_core.errors import GameCoreError
from game_core.match.model import Match, Participant
from game_core.season.naming import naming_turn
from game_core.season.settings import SeasonSettings
from game_core.season.state import SeasonState
from game_core.service.mail.grammar import folded
from game_core.service.mail.lines import is_greeting, unread_lines
from game_core.service.mail.moves import refusal_lines
from game_core.service.ports import Ports
from game_core.service.season.acts import EcAct, ec_act_proven

_TOKEN = r"(?:TOL|TOKEN|TOKEN OF LIFE)"
_SPEND_OR_KEEP = re.compile(rf"(SPEND|KEEP) {_TOKEN}")
_NAME = re.compile(r"NAME(?:\s*:\s*|\s+|$)(.*)", re.IGNORECASE)
_QUOTES = "\"'“”‘’«»"
"""Quotes a phone puts around a name ("NAME “bo”"): no part of it."""


@dataclass(frozen=True)
class SeasonAct:
    act: EcAct
    opponent: str = ""
    text: str = ""
    """The line as written (trimmed), for the answer."""


def read_act(line: str) -> SeasonAct | None:
    """The act a line is, in any case and spacing, a sentence's end ("SPEND TOL.") ignored."""
    written = " ".join(folded(line).split())
    words = re.sub(r"[^\w\s]+$", "", written)
    upper = words.upper()
    if spend_or_keep := _SPEND_OR_KEEP.fullmatch(upper):
        return SeasonAct("spend" if spend_or_keep.group(1) == "SPEND" else "keep", text=upper)
    if named := _NAME.fullmatch(words):
        opponent = named.group(1).strip().strip(_QUOTES).strip()  # as written: a name keeps its case
        return SeasonAct("name", opponent, f"NAME {opponent}".strip())
    return None


def read_acts(text: str) -> tuple[list[SeasonAct], list[str]] | None:
    """The acts of a mail's text and the lines left unread around them; None when its first line
    written (past a greeting) is no act: the mail is for the match, not the season."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    start = 0
    while start < len(lines) and read_act(lines[start]) is None and is_greeting(lines[start]):
        start += 1
    acts: list[SeasonAct] = []
    for line in lines[start:]:
        act = read_act(line)
        if act is None:
            break
        acts.append(act)
    if not acts:
        return None
    return acts, lines[:start] + lines[start + len(acts) :]


def season_by_mail(ports: Ports, match: Match, player: Participant, text: str) -> list[str] | None:
    """The answer's lines to a mail of season acts from `player`; None when the mail is no such
    mail or `match` is no season's (its moves and commands are then read as ever)."""
    link = ports.season_links.linked(match.match_id) if ports.season_links is not None else None
    read = read_acts(text) if link is not None and ports.seasons is not None else None
    if read is None or link is None or ports.seasons is None:
        return None
    acts, unread = read
    settings = ports.seasons.season(link.season_id).settings
    lines: list[str] = []
    for act in acts:
        try:
            state = ec_act_proven(ports, link.season_id, player.id, act.act, act.opponent)
        except GameCoreError as error:
            lines += ["", *refusal_lines(f"{act.text} was not done:", error.reasons)]
            continue
        lines += ["", *done_lines(settings, state, player.id, act)]
    lines += ["", *unread_lines(unread)] if unread else []
    return lines[1:]


def done_lines(settings: SeasonSettings, state: SeasonState, player: str, act: SeasonAct) -> list[str]:
    """What the act did, in words: the state after it is the one stored (sent again: the same)."""
    names = {member.id: member.name or member.id for member in settings.cast}
    tol = state.player(player).tol
    held = f"{tol} Token{'s' if tol != 1 else ''} of Life"
    if act.act == "spend":
        return [f"Done: you spent a Token of Life and are safe this episode; you hold {held} now."]
    if act.act == "keep":
        return [f"Done: you keep your Token of Life (you hold {held}); name your opponent when it is your turn."]
    episode = state.episode
    naming = next((n for n in episode.namings if n.ec == player and n.done), None) if episode else None
    if naming is not None and naming.opponent:
        opponent = names.get(naming.opponent, naming.opponent)
        if naming.by != "ec":  # the same player the host (or a lot) named: nothing of the EC's was taken
            who = "the host" if naming.by == "host" else "a lot"
            return [f"Nothing to do: {who} named {opponent} as your Death Match opponent already."]
        return [f"Done: you named {opponent} as your Death Match opponent."]
    turn = naming_turn(state)
    waiting = f"{names.get(turn, turn)} names first" if turn else "the other ECs holding a ToL answer first"
    return [f"You keep your Token of Life; nobody is named yet: {waiting}. Send NAME again then."]
