"""The mail commands added after issue 19's clients (READY / NOT READY, ABSENT, PRESS TO, ZONE),
written as real clients write them, run through `mail_in.receive` on the fakes: Outlook (its
plain part with a signature under no "-- ", its HTML alone with blank lines of &nbsp;, inline
comments marked "[AO]", in Japanese and Russian), Thunderbird below the quote, Gmail (plain and
HTML), Apple Mail (format=flowed, non-breaking spaces, "Sent from my iPhone"), Samsung's mail app
and phones (autocapitalised words, a closing "." or "!", smart quotes, en and em dashes, days written
24/12/2026 or Dec 24).

Each does what a player who never read the code expects, or is answered naming what was not
understood and how to write it. A message (PRESS) carries the sender's own lines alone, their
line breaks kept: never the quoted notice (their private view), never a PRESS quoted back.

The replies are written here after what each client does (the shared writers are
test_mail_clients'), not copied from any client's bytes. Ada (p1@example.com), Bo and Cy play
Pushing Crates; the clock stands at Tuesday 1 December 2026, 12:00 UTC, in the Pregame.
"""

from __future__ import annotations

import email
import email.policy
import html
import textwrap
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage

import pytest
from fakes import Fakes
from test_mail_clients import (
    HTML_STYLES,
    MID,
    OUTLOOK_SIGNATURE,
    PLAIN_STYLES,
    SENDER,
    Notice,
    halves,
    outlook_header,
    quoted,
    reply,
    the_notice,
)
from test_service_mail_in import receipt

from game_core.mail.inbound import parse_message
from game_core.match.model import MatchRequest
from game_core.service.mail.receive import receive
from game_core.service.matches import phases, press, ready
from game_core.service.matches.absence import declare
from game_core.service.matches.lifecycle import create_match
from game_core.service.matches.submit import SubmissionRequest, submit

PLAYERS = {
    "ada": ("Ada Lovelace", SENDER),
    "bo": ("Bo Baggins", "p2@example.com"),
    "cy": ("Cy O'Neil", "p3@example.com"),
}
MULTIPLIERS = {"multipliers": [2, 1, 1, 0, -1, -1]}


def table() -> Fakes:
    """The Pregame open (early close off: READY votes count), every notice sent so far kept."""
    fakes = Fakes()
    players = [{"id": who, "name": name, "email": address} for who, (name, address) in PLAYERS.items()]
    request = {"game": "crates", "players": players, "phase_seconds": 3600, "early_close": False, "seed": 7}
    create_match(fakes.ports, MatchRequest.model_validate(request))
    return fakes


def send_as_ada(fakes: Fakes, raw: bytes) -> str:
    """Receive Ada's mail; the one answer, threaded under it, as text (what else was sent stays)."""
    before = len(fakes.mailer.sent)
    receive(fakes.ports, receipt(raw))
    answers = [parse_message(mail.raw) for mail in fakes.mailer.sent[before:] if mail.to == SENDER]
    [answer] = [letter for letter in answers if letter.in_reply_to == parse_message(raw).message_id]
    return answer.text


def told(fakes: Fakes, who: str) -> list[str]:
    """The text of each mail sent to `who`."""
    return [parse_message(mail.raw).text for mail in fakes.mailer.sent if mail.to == PLAYERS[who][1]]


def messages(fakes: Fakes) -> list[tuple[object, str]]:
    """Each message logged: whom it went to, and its text."""
    return [(event.data["to"], event.data["text"]) for event in fakes.store.events(MID) if event.type == "press"]


# -- the clients this file adds to test_mail_clients' -------------------------------------------


def mso(text: str) -> str:
    """Lines as Outlook for Windows writes them in HTML: a paragraph each, a blank one of &nbsp;."""
    return "".join(f"<p class=MsoNormal>{html.escape(line) or '<o:p>&nbsp;</o:p>'}</p>" for line in text.split("\n"))


def outlook_html_only(body: str, notice: Notice, mail: EmailMessage) -> None:
    """Outlook for Windows sending HTML alone: the signature under its bookmark, the notice below
    its header block, unquoted."""
    name, phone = OUTLOOK_SIGNATURE.split("\n")
    header = html.escape(outlook_header(notice)).replace("\n", "<br>")
    mail.set_content(
        "<html><head><style>p.MsoNormal{margin:0}</style></head><body><div class=WordSection1>"
        f'{mso(body)}{mso("")}<p class=MsoNormal><a name="_MailAutoSig">{html.escape(name)}</a></p>{mso(phone)}'
        f'<div style="border:none;border-top:solid #E1E1E1 1.0pt">{mso(header)}</div>{mso(notice.text)}'
        "</div></body></html>",
        subtype="html",
    )


def outlook_inline(body: str, notice: Notice, mail: EmailMessage) -> None:
    """Outlook's inline comments: nothing above the header block, each line of the sender's
    marked "[AO]" inside the notice, unquoted."""
    above, below = halves(notice.text)
    marked = "\n".join(f"[AO] {line}" for line in body.split("\n") if line)
    mail.set_content(f"\n{'_' * 32}\n{outlook_header(notice)}\n\n{above}\n{marked}\n\n{below}\n")


def outlook_in(labels: tuple[str, str, str, str]) -> Callable[[str, Notice, EmailMessage], None]:
    """Outlook's plain part in another language: the header block's labels in it."""

    def body(text: str, notice: Notice, mail: EmailMessage) -> None:
        mail.set_content(f"{text}\n\n{'_' * 32}\n{outlook_header(notice, labels)}\n\n{notice.text}\n")

    return body


def flowed(text: str, delete_space: bool, width: int = 40) -> str:
    """format=flowed (RFC 3676): a line longer than `width` broken after a space, left at the end
    of the line (a soft break); with DelSp=Yes a space more, which the reader deletes. The sender's
    own line ends are kept (hard); a line starting ">" is stuffed with a space (not a quote)."""
    soft = "  " if delete_space else " "
    lines: list[str] = []
    for line in text.split("\n"):
        pieces = textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False) or [""]
        lines += [piece + soft for piece in pieces[:-1]] + pieces[-1:]
    return "\n".join(" " + line if line.startswith((" ", ">")) else line for line in lines)


def apple_mail(delete_space: bool) -> Callable[[str, Notice, EmailMessage], None]:
    """Apple Mail on an iPhone: format=flowed (DelSp=Yes or not), its footer, then the attribution
    and the notice quoted."""

    def body(text: str, notice: Notice, mail: EmailMessage) -> None:
        attribution = f"On 1 Dec 2026, at 12:00, {notice.sender} wrote:"
        written = flowed(text, delete_space)
        mail.set_content(
            f"{written}\n\nSent from my iPhone\n\n{quoted(attribution + chr(10) + chr(10) + notice.text)}\n"
        )
        mail.set_param("format", "flowed")
        if delete_space:
            mail.set_param("delsp", "yes")

    return body


def samsung(body: str, notice: Notice, mail: EmailMessage) -> None:
    """Samsung's mail app on Android: its carrier's footer, then the notice under a separator and
    its header, unquoted."""
    mail.set_content(
        f"{body}\n\n\n\nSent via the Samsung Galaxy S23, an AT&T 5G smartphone\n\n"
        f"-------- Original message --------\nFrom: {notice.sender}\nDate: 12/1/26 12:00 (GMT+00:00)\n"
        f"To: {SENDER}\nSubject: {notice.letter.subject}\n\n{notice.text}\n"
    )


MORE_STYLES: dict[str, Callable[[str, Notice, EmailMessage], None]] = {
    "outlook html only": outlook_html_only,
    "outlook inline comments": outlook_inline,
    "outlook in Japanese": outlook_in(("差出人", "送信日時", "宛先", "件名")),
    "outlook in Russian": outlook_in(("От", "Отправлено", "Кому", "Тема")),
    "apple mail flowed": apple_mail(delete_space=False),
    "apple mail flowed, delsp=yes": apple_mail(delete_space=True),
    "samsung": samsung,
}


def written_by(style: str, body: str, notice: Notice, message_id: str = "<reply-1@example.com>") -> bytes:
    """Ada's reply to `notice`, `body` written as the client `style` writes it."""
    if style in PLAIN_STYLES or style in HTML_STYLES:
        raw = reply(style, body, notice)
    else:
        mail = email.message_from_bytes(reply("gmail", body, notice), policy=email.policy.default)
        assert isinstance(mail, EmailMessage)
        mail.clear_content()
        MORE_STYLES[style](body, notice, mail)
        raw = mail.as_bytes()
    return raw.replace(b"<reply-1@example.com>", message_id.encode())


# -- what each command should do --------------------------------------------------------------


class Expected(ABC):
    """What a mail should leave behind: `before` readies the table (Ada's multipliers sent, by
    default), `holds` checks the answer and the match."""

    def before(self, fakes: Fakes) -> None:
        submit(fakes.ports, SubmissionRequest(MID, "ada", "Pregame", "multipliers", MULTIPLIERS, "test"))

    @abstractmethod
    def holds(self, fakes: Fakes, answer: str) -> None: ...


@dataclass(frozen=True)
class Vote(Expected):
    ready: bool

    def before(self, fakes: Fakes) -> None:
        super().before(fakes)
        if not self.ready:  # a vote to take back
            ready.vote(fakes.ports, MID, "ada", True, "test")

    def holds(self, fakes: Fakes, answer: str) -> None:
        phase = fakes.store.get(MID).phase
        assert phase is not None and phase.ready == (("ada",) if self.ready else ())
        assert f"Done: {'READY' if self.ready else 'NOT READY'}." in answer.split("\n")


@dataclass(frozen=True)
class Away(Expected):
    """Away from the first day's start to the day after the last (Ada reads UTC): `said` as the answer says it."""

    first: str
    last_midnight: str
    said: str

    def holds(self, fakes: Fakes, answer: str) -> None:
        [away] = fakes.store.get(MID).absences
        assert (away.start.isoformat(), away.end.isoformat()) == (self.first, self.last_midnight)
        assert self.said in " ".join(answer.split())


@dataclass(frozen=True)
class Withdrawn(Expected):
    def before(self, fakes: Fakes) -> None:
        declare(fakes.ports, MID, "ada", "2026-12-24", "2026-12-27", "test")

    def holds(self, fakes: Fakes, answer: str) -> None:
        assert fakes.store.get(MID).absences == ()  # withdrawn before it began: gone
        assert "Done: ABSENT CANCEL." in answer.split("\n")


@dataclass(frozen=True)
class Zone(Expected):
    zone: str

    def holds(self, fakes: Fakes, answer: str) -> None:
        assert fakes.store.get(MID).participant("ada").zone == self.zone  # type: ignore[union-attr]
        assert f"Done: your mail gives deadlines in {self.zone} time from now on." in answer


@dataclass(frozen=True)
class Message(Expected):
    """The message went to `to` (ids; None: everyone) and nobody else, its text exactly `text`."""

    to: tuple[str, ...] | None
    text: str

    def holds(self, fakes: Fakes, answer: str) -> None:
        assert messages(fakes) == [("all" if self.to is None else list(self.to), self.text)]
        whom = "everyone" if self.to is None else ", ".join(PLAYERS[who][0] for who in self.to)
        for who in ("bo", "cy"):
            # Each recipient reads themself as "you" among those it went to
            them = (
                "everyone" if self.to is None else ", ".join("you" if to == who else PLAYERS[to][0] for to in self.to)
            )
            heard = f"A message from Ada Lovelace to {them}:\n\n{self.text}\n\n"
            said = [text[text.index("A message from") :] for text in told(fakes, who) if "A message from" in text]
            assert [text.startswith(heard) for text in said] == ([True] if self.to is None or who in self.to else [])
        # a blank line of the message is echoed blank: trailing spaces are not sent (format=flowed)
        echo = "\n".join(f"  {line}".rstrip(" ") for line in self.text.split("\n"))
        assert f"Your message went to {whom}.\n\n{echo}" in answer


@dataclass(frozen=True)
class Refused(Expected):
    """Nothing changed; the answer says `said` (its whitespace as one space each)."""

    said: str

    def holds(self, fakes: Fakes, answer: str) -> None:
        match = fakes.store.get(MID)
        assert match.absences == () and match.phase is not None and match.phase.ready == () and not messages(fakes)
        assert match.participant("ada").zone is None  # type: ignore[union-attr]
        assert self.said in " ".join(answer.split())


AWAY_AT_CHRISTMAS = Away(
    "2026-12-24T00:00:00+00:00",
    "2026-12-28T00:00:00+00:00",
    "You are away from Thursday 24 December, 00:00 UTC until Monday 28 December, 00:00 UTC.",
)
"""24 to 27 December, both whole days, in UTC (Ada has no zone): four days, the longest allowed."""
DEAL = "Deal?\nI push crate 3 left, you push it up."
LONG_LINE = "I push crate 3 left in round one, and you push it up in round two."
"""Longer than a line of Apple Mail's here (40 columns): sent broken in two by a soft break."""
BROKEN_BEFORE_A_MARK = "I push crate 3 left and you push crate 5 > crate 7 in round two."
"""Broken after its 40th character: its second line starts with ">", stuffed, no quote."""

CASES: list[tuple[str, str, str, Expected]] = [
    # (id, client style, what Ada writes, what should happen)
    # READY and NOT READY: a phone's capital, full stop or "!" is no part of the command
    ("ready under outlook's signature", "outlook plain", "Ready", Vote(True)),
    ("ready. as outlook's html alone", "outlook html only", "Ready.", Vote(True)),
    ("ready marked inline", "outlook inline comments", "READY", Vote(True)),
    ("ready below the quote", "thunderbird below the quote", "ready", Vote(True)),
    ("ready! in gmail's html", "gmail html", "Ready!", Vote(True)),
    ("ready flowed", "apple mail flowed", "Ready", Vote(True)),
    ("not ready. from a phone", "iphone", "Not ready.", Vote(False)),
    (
        "i'm ready: how to vote",
        "iphone",
        "I’m ready",
        Refused(
            'line 1 "I’m ready": not understood; expected a line starting MULTIPLIERS, or <six numbers> alone'
            " - line 1: to vote, write READY (or NOT READY, to take it back) on a line of its own"
        ),
    ),
    ("not ready in german gmail", "gmail in German", "not  ready", Vote(False)),
    ("ready from a samsung", "samsung", "Ready!", Vote(True)),
    ("ready with an emoji", "iphone", "Ready 👍", Vote(True)),
    ("ready with a smiley", "gmail", "ready :)", Vote(True)),
    ("not ready. as outlook's html alone", "outlook html only", "Not ready.", Vote(False)),
    # ABSENT: the days as people write them, each read as 24 to 27 December 2026
    ("absent, an en dash", "iphone", "Absent 2026-12-24 – 2026-12-27", AWAY_AT_CHRISTMAS),
    ("absent, a phone's em dash for --", "iphone", "Absent 2026-12-24—2026-12-27.", AWAY_AT_CHRISTMAS),
    ("absent, day/month/year", "outlook plain", "ABSENT 24/12/2026 - 27/12/2026", AWAY_AT_CHRISTMAS),
    ("absent, month/day/year", "iphone", "Absent 12/24/2026 – 12/27/2026", AWAY_AT_CHRISTMAS),
    ("absent, day.month without a year", "thunderbird below the quote", "absent 24.12. - 27.12.", AWAY_AT_CHRISTMAS),
    ("absent, Dec 24 - Dec 27", "gmail", "Absent Dec 24 - Dec 27", AWAY_AT_CHRISTMAS),
    ("absent, Dec 24-27", "gmail html", "Absent Dec 24-27", AWAY_AT_CHRISTMAS),
    (
        "absent, 24th December to 27th",
        "apple mail flowed",
        "Absent\xa024th December to 27th\xa0December",
        AWAY_AT_CHRISTMAS,
    ),
    ("absent with non-breaking spaces", "outlook web html", "ABSENT\xa024 Dec\xa0–\xa027 Dec", AWAY_AT_CHRISTMAS),
    ("absent from Dec 24 to Dec 27", "outlook plain", "Absent from Dec 24 to Dec 27", AWAY_AT_CHRISTMAS),
    ("absent 24–27 Dec", "iphone", "Absent 24–27 Dec", AWAY_AT_CHRISTMAS),
    (
        "absent, a day alone",
        "gmail",
        "Absent 24",
        Refused("'24' is not read as a day: a day's number alone goes with a month's name (Dec 24-27, 24-27 Dec)"),
    ),
    ("absent: Dec 24th – 27th", "iphone", "Absent: Dec 24th – 27th", AWAY_AT_CHRISTMAS),
    ("absent marked inline", "outlook inline comments", "ABSENT 2026-12-24 2026-12-27", AWAY_AT_CHRISTMAS),
    ("absent, as outlook's html alone", "outlook html only", "Absent 24/12/2026 – 27/12/2026", AWAY_AT_CHRISTMAS),
    ("absent cancel.", "iphone", "Absent cancel.", Withdrawn()),
    (
        "away in words: how to write it",
        "gmail",
        "I will be absent over Christmas",
        Refused(
            "line 1: to say when you are away, write ABSENT and your first and last days: ABSENT 2026-12-24 2026-12-27"
        ),
    ),
    ("absent cancel in thunderbird's html", "thunderbird html below the quote", "ABSENT CANCEL", Withdrawn()),
    # Refused, naming what was not understood and how to write it
    (
        "absent, 05/12: which?",
        "iphone",
        "Absent 05/12/2026",
        Refused("'05/12/2026' is not read as a day: it may be 12 May or 5 December: write 2026-05-12 or 2026-12-05"),
    ),
    (
        "absent, 31/11: no day",
        "gmail",
        "Absent 30/11/2026 – 31/11/2026",
        Refused("'31/11/2026' is not read as a day: it is no day of the calendar"),
    ),
    (
        "absent, a month in german",
        "outlook html only",
        "Absent 24 Dez - 27 Dez",
        Refused("'24 DEZ' is not read as a day: DEZ is no month's name in English (Dec, December)"),
    ),
    (
        "absent, next week",
        "iphone",
        "Absent next week",
        Refused("ABSENT NEXT WEEK was not done: - write ABSENT 2026-12-24 2026-12-27 (your first and last days away"),
    ),
    # ZONE
    ("zone. from a phone", "iphone", "Zone Europe/Paris.", Zone("Europe/Paris")),
    ("zone in lower case under a signature", "outlook plain", "zone europe/paris", Zone("Europe/Paris")),
    ("zone: with a colon", "gmail", "Zone: Europe/Paris", Zone("Europe/Paris")),
    ("zone marked inline", "outlook inline comments", "ZONE Europe/Paris", Zone("Europe/Paris")),
    # Never Etc/GMT+1 offered for it: that zone is UTC-1 (POSIX's sign)
    (
        "zone: an offset",
        "iphone",
        "Zone GMT+1",
        Refused(
            "ZONE GMT+1 was not done: - 'GMT+1' is not a time zone but an offset from UTC, which summer time may"
            ' change: write the zone of a city near you (e.g. "Europe/Paris")'
        ),
    ),
    # PRESS: the sender's own lines below the PRESS line, their breaks kept; never the notice
    # Outlook's plain part cannot mark its signature: the sender's own, it goes with their letter
    (
        "press under outlook's signature",
        "outlook plain",
        f"PRESS TO bo\n{DEAL}",
        Message(("bo",), f"{DEAL}\n\n{OUTLOOK_SIGNATURE}"),
    ),
    ("press: outlook's html marks its signature", "outlook web html", f"Press to Bo:\n{DEAL}", Message(("bo",), DEAL)),
    (
        "press: outlook's html alone, a blank line of &nbsp; kept",
        "outlook html only",
        "Press to Bo Baggins\nDeal?\n\nCrate 3, then 5.",
        Message(("bo",), "Deal?\n\nCrate 3, then 5."),
    ),
    ("press marked inline", "outlook inline comments", f"PRESS TO bo\n{DEAL}", Message(("bo",), DEAL)),
    ("press: outlook in japanese", "outlook in Japanese", f"PRESS TO bo\n{DEAL}", Message(("bo",), DEAL)),
    ("press: outlook in russian", "outlook in Russian", f"PRESS TO bo\n{DEAL}", Message(("bo",), DEAL)),
    ("press: samsung's footer left out", "samsung", f"Press to Bo\n{DEAL}", Message(("bo",), DEAL)),
    # A notice forwarded under the message is the sender's own private view: never sent along
    (
        "press over a forwarded notice",
        "forwarded",
        "PRESS TO bo\nLook what I got:",
        Message(("bo",), "Look what I got:"),
    ),
    ("press below the quote", "thunderbird below the quote", f"PRESS TO bo\n{DEAL}", Message(("bo",), DEAL)),
    ("press in thunderbird's html", "thunderbird html below the quote", f"PRESS TO bo\n{DEAL}", Message(("bo",), DEAL)),
    ("press to two in gmail", "gmail", f"PRESS TO bo, Cy O'Neil\n{DEAL}", Message(("bo", "cy"), DEAL)),
    ("press to everyone", "gmail html", "Press to everyone\nHi all", Message(None, "Hi all")),
    (
        "press to Bo and Cy: how to name them",
        "iphone",
        f"Press to Bo and Cy\n{DEAL}",
        Refused(
            f"'Bo and Cy' is not a participant of match {MID} (Ada Lovelace (ada), Bo Baggins (bo), Cy O'Neil (cy))"
            " - write PRESS TO and whom it goes to (names apart by commas, or ALL), the message below that line"
        ),
    ),
    ("press to a name with a phone's apostrophe", "iphone", f"Press to Cy O’Neil\n{DEAL}", Message(("cy",), DEAL)),
    ("press in gmail's html", "gmail html", f"Press to bo.\n{DEAL}", Message(("bo",), DEAL)),
    (
        "press flowed: the soft breaks joined, the hard ones kept",
        "apple mail flowed",
        f"Press to Bo\n{LONG_LINE}\nDeal?\xa0\xa0Tell me by noon.",
        Message(("bo",), f"{LONG_LINE}\nDeal?\xa0\xa0Tell me by noon."),
    ),
    (
        "press flowed: a soft break before a >",
        "apple mail flowed",
        f"Press to Bo\n{BROKEN_BEFORE_A_MARK}",
        Message(("bo",), BROKEN_BEFORE_A_MARK),
    ),
    (
        "press flowed, delsp=yes: the added spaces deleted",
        "apple mail flowed, delsp=yes",
        f"Press to Bo\n{LONG_LINE}\nDeal?\xa0\xa0Tell me by noon.",
        Message(("bo",), f"{LONG_LINE}\nDeal?\xa0\xa0Tell me by noon."),
    ),
    (
        "press from a phone: smart quotes and dashes kept",
        "iphone",
        "Press to bo\n“Deal?” – crate 3 — I’ll push it left.",
        Message(("bo",), "“Deal?” – crate 3 — I’ll push it left."),
    ),
    (
        "press under a greeting with a sign-off",
        "a sign-off over a Spanish quote",
        f"PRESS TO all\n{DEAL}",
        Message(None, f"{DEAL}\n\nCheers,\nCara"),  # "Hi," above the PRESS line left out
    ),
]


@pytest.mark.parametrize(
    ("style", "written", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_each_command_as_each_client_writes_it(style: str, written: str, expected: Expected) -> None:
    answers_the_notice(lambda notice: written_by(style, written, notice), expected)


def answers_the_notice(mail: Callable[[Notice], bytes], expected: Expected) -> None:
    """Ada answers the Pregame's notice with `mail` (its text as her client shows it), on a table
    readied by `expected`, which then checks what the mail left and its answer."""
    fakes = table()
    notice = the_notice(fakes)
    expected.before(fakes)

    answer = send_as_ada(fakes, mail(notice))

    expected.holds(fakes, answer)


# -- replies to an earlier phase's notice ---------------------------------------------------------


def round_one(fakes: Fakes) -> None:
    """Ada's multipliers sent, the Pregame resolved at its deadline, then her Round 1 move: Round 1
    (phase 2) waits for nothing more from her."""
    submit(fakes.ports, SubmissionRequest(MID, "ada", "Pregame", "multipliers", MULTIPLIERS, "test"))
    pregame = fakes.store.get(MID).phase
    assert pregame is not None
    fakes.clock.set(pregame.deadline)
    phases.resolve(fakes.ports, MID, pregame.number)
    phases.announce(fakes.ports, MID, pregame.number)
    turn = {"pushes": [{"crate": "ada", "direction": "right"}], "ground": "stone"}
    submit(fakes.ports, SubmissionRequest(MID, "ada", "Round 1", "round", turn, "test"))


@pytest.mark.parametrize("vote", ["Ready!", "Not ready"])
def test_a_vote_answering_an_earlier_phases_notice_is_not_cast_until_sent_for_the_open_one(vote: str) -> None:
    # Issue 19 item 3's rule for moves, for votes: a READY that came late for the Pregame must
    # not vote Round 1 ready (with everyone else ready it would close Round 1 early); NOT READY
    # alike (it would take back a vote Ada cast on Round 1). A vote names no phase: the answer
    # says to reply to it, and that reply votes.
    fakes = table()
    pregame = the_notice(fakes)
    round_one(fakes)
    if vote == "Not ready":
        ready.vote(fakes.ports, MID, "ada", True, "test")
    voted = ("ada",) if vote == "Not ready" else ()

    answer = send_as_ada(fakes, written_by("iphone", vote, pregame))

    command = vote.rstrip("!").upper()
    assert " ".join(answer.split()).startswith(
        f"Hello Ada Lovelace, {command} was not done: - your mail answers the mail for phase 1 (Pregame), "
        f"and phase 2 (Round 1) is open now; to vote on it, reply to this mail with {command}"
    )
    assert fakes.store.get(MID).phase.ready == voted  # type: ignore[union-attr]

    [refusal] = [mail for mail in fakes.mailer.sent if mail.to == SENDER][-1:]
    answered = Notice(parse_message(refusal.raw), answer)
    send_as_ada(fakes, written_by("gmail", vote, answered, "<reply-2@example.com>"))

    assert fakes.store.get(MID).phase.ready == (() if voted else ("ada",))  # type: ignore[union-attr]


def test_a_vote_with_moves_naming_the_open_phase_is_cast_whatever_mail_it_answers() -> None:
    # The mail names Round 1 above its move: it is for Round 1, its READY too (issue 19 item 3)
    fakes = table()
    pregame = the_notice(fakes)
    round_one(fakes)

    answer = send_as_ada(fakes, written_by("gmail", "ROUND 1\nPUSH bo LEFT\nREADY", pregame))

    assert fakes.store.submissions(MID, 2)["ada"] == {
        "round": {"pushes": [{"crate": "bo", "direction": "left"}], "ground": "stone"}
    }
    assert fakes.store.get(MID).phase.ready == ("ada",)  # type: ignore[union-attr]
    assert "Accepted for Round 1:" in answer and "Done: READY." in answer.split("\n")


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Absent Dec 24 - Dec 27", AWAY_AT_CHRISTMAS),
        ("Zone Europe/Paris", Zone("Europe/Paris")),
        (f"Press to bo\n{DEAL}", Message(("bo",), DEAL)),
    ],
    ids=["absent", "zone", "press"],
)
def test_absent_zone_and_press_answering_an_earlier_phases_notice_are_taken(written: str, expected: Expected) -> None:
    # None is for a phase: an absence's days, a zone and a message mean the same whichever mail
    # they answer
    fakes = table()
    pregame = the_notice(fakes)
    round_one(fakes)

    answer = send_as_ada(fakes, written_by("thunderbird below the quote", written, pregame))

    expected.holds(fakes, answer)


# -- a PRESS quoted back ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "style",
    [
        "gmail",
        "gmail html",
        "outlook plain",
        "outlook html only",
        "outlook in Japanese",
        "thunderbird below the quote",
        "iphone",
        "apple mail flowed",
        "samsung",
        "inline between quotes",
    ],
)
@pytest.mark.parametrize("answered", ["her own message", "Cy's message to her"])
def test_a_message_quoted_in_a_reply_is_never_sent_again(answered: str, style: str) -> None:
    # Ada answers a message in her client: her own PRESS mail (a client's thread shows it with the
    # match's mail), whose quote holds its PRESS line, or the notice of Cy's (her private view,
    # with how to answer Cy). What she writes is read; what is quoted is not sent again, to anyone
    fakes = table()
    first = EmailMessage()
    first["From"], first["To"], first["Subject"] = SENDER, f"{MID}@play.test", f"Re: [{MID}] Pregame"
    first["Message-ID"] = "<ada-press@example.com>"
    first.set_content(f"PRESS TO bo\n{DEAL}\n")
    if answered == "her own message":
        receive(fakes.ports, receipt(first.as_bytes()))
        notice = Notice(parse_message(first.as_bytes()), first.get_content())
    else:
        press.send(fakes.ports, MID, "cy", ["ada"], "Bo is bluffing.\nPRESS TO bo if you dare.", "test")
        notice = the_notice(fakes)
    before = messages(fakes)

    answer = send_as_ada(fakes, written_by(style, "press to cy\nNo deal.", notice))

    # As she wrote it: the inline answer in lower case, Outlook's plain signature hers
    own = {"inline between quotes": "no deal.", "outlook plain": f"No deal.\n\n{OUTLOOK_SIGNATURE}"}
    sent = [*before, (["cy"], own.get(style, "No deal."))]
    assert messages(fakes) == sent
    assert "Your message went to Cy O'Neil." in answer

    # Nothing of her own in it (Thunderbird's reply sent at once): nothing is sent
    answer = send_as_ada(fakes, written_by("thunderbird below the quote", "", notice, "<reply-2@example.com>"))
    assert messages(fakes) == sent
    assert answer.split("\n")[2] == "Nothing was submitted: your mail was not understood."
