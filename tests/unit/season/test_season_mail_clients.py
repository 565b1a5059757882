"""An EC's season acts as real clients write them: a reply to the season's notice (which itself
shows example acts, "NAME bo" among them) in the shape of each client test_mail_clients and
test_mail_clients_commands write (Gmail, Outlook's plain text, its HTML alone in quoted-printable
with blank lines of &nbsp; and its inline comments, Apple Mail's format=flowed, "Sent from my
iPhone", Thunderbird below the quote, Samsung's, a forward), through `mail_in.receive` on the
fakes (test_season_mail's Mailbox: the six players' season after Domino, fay its one EC).

Worked by hand from RULINGS.md "Seasons" and SEASONS.md: after Domino ada holds 2 ToL and fay is
the one EC, so fay may name bo, cy, di or ed (no EC, no ToL); a name is a cast member's id or
whole name in any case, as the match's mail grammar reads a player (games/plain_text.Roster); a
naming is final once taken. Fay writes from p1@example.com, the address the writers use.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from season_support import domino_ended, duel

sys.path.append(str(Path(__file__).resolve().parent.parent / "service"))  # the mail writers

from test_mail_clients import HTML_STYLES, PLAIN_STYLES, SENDER, Notice  # noqa: E402
from test_mail_clients_commands import MORE_STYLES, written_by  # noqa: E402
from test_season_mail import Mailbox  # noqa: E402

from game_core.mail.inbound import parse_message  # noqa: E402
from game_core.season.death_match import death_match_ended, start_death_match  # noqa: E402
from game_core.season.episode import start_episode  # noqa: E402
from game_core.season.naming import draw_lot, name_opponent  # noqa: E402
from game_core.season.news import occasions  # noqa: E402
from game_core.season.state import SeasonEvent  # noqa: E402
from game_core.service.mail.receive import Outcome  # noqa: E402
from game_core.service.season.news import season_letters, season_notices  # noqa: E402

NAMES = {"ada": "Ada Lovelace", "cy": "Sam Cole", "di": "Sam Dee"}
"""Two of the cast share a first name (cy and di); the others go by their ids."""
STYLES = sorted([*PLAIN_STYLES, *HTML_STYLES, *MORE_STYLES])


def the_notice(box: Mailbox) -> Notice:
    """The season's notice to fay that Domino is over (service/season/news.py, carried by the
    Mailbox's match), as her client shows it; while she names, it says whom, as `NAME bo` ..."""
    record = box.seasons.season("s-1")
    logged = box.seasons.season_log("s-1", 0, record.logged)
    told = occasions(record.settings, [(number, SeasonEvent(event.type, event.data)) for number, event in logged])
    carrier = box.table.fakes.store.get(box.table.match_id)
    ended = [occasion for occasion in told if occasion.lines[0].endswith("Main Match (domino) is over.")]
    [hers] = [notice for notice in season_notices(record, carrier, ended) if notice.recipient == "fay"]
    ports = box.table.ports
    [mail] = season_letters(carrier, [hers], ports.clock.now(), ports.mailer.domain)
    letter = parse_message(mail.raw)
    assert mail.to == SENDER
    return Notice(letter, letter.text)


def fays_reply(box: Mailbox, style: str, body: str, message_id: str = "<reply-1@example.com>") -> str:
    """Fay's reply, `body` written as `style` writes it; the one answer, as text."""
    before = len(box.table.fakes.mailer.sent)
    assert box.receive(written_by(style, body, the_notice(box), message_id)) is Outcome.ANSWERED
    [answer] = box.answers()[before:]
    return " ".join(answer.split())


def unread(style: str) -> tuple[str, ...]:
    """The lines the answer lists as not read (the writers' signatures and sign-offs)."""
    return (PLAIN_STYLES.get(style) or HTML_STYLES.get(style) or (None, ()))[1]


@pytest.mark.parametrize("style", STYLES)
def test_each_client_names_the_player_written_never_the_quoted_example(style: str) -> None:
    box = Mailbox(fay=SENDER, names=NAMES)
    before = box.events()
    assert "Reply with one line, NAME and one of: bo (NAME bo)," in " ".join(the_notice(box).text.split())

    answer = fays_reply(box, style, "Name Ed.")

    [naming] = box.seasons.season("s-1").state.episodes[0].namings
    assert (naming.ec, naming.opponent, naming.by) == ("fay", "ed", "ec")  # never bo, the quote's example
    assert box.events() == [*before, "named", "death_matches_set"]
    assert "Done: you named ed as your Death Match opponent." in answer
    listed = " ".join(["Not read (taken for a greeting or a sign-off):", *unread(style)])
    assert (listed in answer) if unread(style) else ("Not read" not in answer)


@dataclass(frozen=True)
class Named:
    opponent: str
    said: str

    def holds(self, box: Mailbox, answer: str) -> None:
        [naming] = box.seasons.season("s-1").state.episodes[0].namings
        assert (naming.opponent, naming.by) == (self.opponent, "ec")
        assert self.said in answer


@dataclass(frozen=True)
class Refused:
    said: str

    def holds(self, box: Mailbox, answer: str) -> None:
        [naming] = box.seasons.season("s-1").state.episodes[0].namings
        assert naming.opponent is None and box.table.fakes.workflow.woken == []  # nothing stored, nobody woken
        assert self.said in answer


CAST = "Ada Lovelace (ada), bo, Sam Cole (cy), Sam Dee (di), ed, fay"
WRITTEN: list[tuple[str, str, str, Named | Refused]] = [
    # (id, client, what fay writes, what follows): case, a colon, spacing and punctuation as the
    # match's commands take them ("Ready!", "NOT  READY")
    ("lower case", "gmail", "name bo", Named("bo", "Done: you named bo")),
    ("a phone's capital and a colon", "iphone", "Name: Ed", Named("ed", "Done: you named ed")),
    ("a colon and no space", "outlook plain", "NAME:bo", Named("bo", "Done: you named bo")),
    ("an id in capitals, a full stop", "apple mail flowed", "NAME ED.", Named("ed", "Done: you named ed")),
    ("smart quotes and a !", "iphone", "Name \u201cSam Dee\u201d!", Named("di", "Done: you named Sam Dee")),
    ("a whole name, lower case", "thunderbird below the quote", "name sam cole", Named("cy", "named Sam Cole")),
    ("a non-breaking space, in html", "outlook html only", "NAME\u00a0Sam\u00a0Dee", Named("di", "named Sam Dee")),
    ("a non-breaking space, flowed", "apple mail flowed, delsp=yes", "Name\u00a0bo", Named("bo", "named bo")),
    (
        "a first name two share",
        "gmail",
        "NAME Sam",
        Refused("NAME Sam was not done: - 'Sam' is only the start of Sam Cole (cy) and Sam Dee (di): write the whole"),
    ),
    (
        "holding a ToL",
        "outlook web html",
        "NAME Ada Lovelace",
        Refused("NAME Ada Lovelace was not done: - fay may not name ada: they may name bo, cy, di, ed"),
    ),
    ("herself", "samsung", "name fay", Refused("fay may not name fay: they may name bo, cy, di, ed")),
    ("nobody of the cast", "gmail html", "NAME Zoe", Refused(f"'Zoe' is nobody of this season ({CAST})")),
    ("more words than a name", "iphone", "Name bo please", Refused(f"'bo please' is nobody of this season ({CAST})")),
    (
        "NAME alone",
        "outlook inline comments",
        "NAME",
        Refused(f"NAME was not done: - NAME needs whom you name: write NAME and their id or name ({CAST})"),
    ),
]


@pytest.mark.parametrize(("style", "body", "expected"), [c[1:] for c in WRITTEN], ids=[c[0] for c in WRITTEN])
def test_a_naming_as_people_write_it_is_taken_or_refused_saying_why(
    style: str, body: str, expected: Named | Refused
) -> None:
    box = Mailbox(fay=SENDER, names=NAMES)
    expected.holds(box, fays_reply(box, style, body))


def host_named_di(_settings, state):  # type: ignore[no-untyped-def]
    return name_opponent(state, "fay", "di", by="host")


AFTER_THE_TURN: list[tuple[str, list[Callable], str, str]] = [  # type: ignore[type-arg]
    # (id, the season's steps before fay writes, what she writes, what she is told)
    ("she named already", [lambda _, s: name_opponent(s, "fay", "di")], "NAME bo", "fay already named di"),
    ("the host named for her", [host_named_di], "NAME bo", "the host already named di as fay's opponent"),
    (
        "the host named whom she names",
        [host_named_di],
        "NAME Sam Dee",
        "Nothing to do: the host named Sam Dee as your Death Match opponent already.",
    ),
    # the Death Match played and lost (fay eliminated), episode 2's Main Match begun
    (
        "the episode is over",
        [
            host_named_di,
            lambda _, s: start_death_match(s, "fay", "m-dm1"),
            lambda _, s: death_match_ended(s, "m-dm1", duel("di", "fay")),
            lambda _, s: start_episode(s, 2, "m-cr"),
        ],
        "NAME bo",
        "season s-1 is not waiting for that now: episode 2's Main Match is being played",
    ),
]


@pytest.mark.parametrize(("steps", "body", "said"), [c[1:] for c in AFTER_THE_TURN], ids=[c[0] for c in AFTER_THE_TURN])
def test_a_naming_after_the_turn_closed_changes_nothing_and_says_who_named(
    steps: list[Callable],
    body: str,
    said: str,  # type: ignore[type-arg]
) -> None:
    box = Mailbox([*domino_ended(), *steps], fay=SENDER, names=NAMES)
    before = box.seasons.season("s-1").state

    answer = fays_reply(box, "iphone", body)

    assert box.seasons.season("s-1").state == before
    assert said in answer


def test_after_a_lot_named_her_opponent_she_is_told_the_lot_did() -> None:
    box = Mailbox([*domino_ended(), lambda _, s: draw_lot(s, "fay")], fay=SENDER, names=NAMES)
    [naming] = box.seasons.season("s-1").state.episodes[0].namings
    assert naming.by == "lot" and naming.among == ["bo", "cy", "di", "ed"]  # drawn among those she might name
    other = next(p for p in naming.among if p != naming.opponent)

    answer = fays_reply(box, "gmail", f"NAME {other}")

    assert f"a lot already named {naming.opponent} as fay's opponent" in answer
