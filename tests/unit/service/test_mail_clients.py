"""Mail as real clients write it, in every game: a reply to the notice each player was sent, in
the shape of each common client (a move above, below or between the quoted notice; Outlook's
signature with no "-- "; a person's sign-off; attributions in several languages; a phone's
footer; a forward), run through `mail_in.receive` on the fakes. Each takes the move written and
nothing else: never the example move the quoted notice carries (each game's move below differs
from its notice's example), and one answer goes back, threaded under the reply, listing the
lines left unread.

The replies are written here by hand after what each client does, not copied from any client's
bytes; the moves and what each stores are worked out from the game's grammar (its text_help).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

import pytest
from fakes import Fakes
from test_service_mail_in import receipt

from game_core.mail.inbound import Letter, parse_message
from game_core.match.model import MatchRequest
from game_core.service.mail.receive import Outcome, receive
from game_core.service.matches import phases
from game_core.service.matches.lifecycle import create_match
from game_core.service.matches.submit import SubmissionRequest, submit

MID = "m-000000000001"
SENDER = "p1@example.com"


@dataclass(frozen=True)
class GameCase:
    game: str
    players: int
    phase: str
    """The open phase the move is for."""
    move: tuple[str, ...]
    kind: str
    stored: dict[str, Any]
    guests: bool = False
    after_first: bool = False
    """The first phase takes nothing (Palindrome's pregame): the move is for the second."""


GAMES = [
    # The notice's example is "MULTIPLIERS 2 1 1 0 -1 -1"
    GameCase(
        "crates", 2, "Pregame", ("MULTIPLIERS -1 2 1 -1 0 1",), "multipliers", {"multipliers": [-1, 2, 1, -1, 0, 1]}
    ),
    # Example "CARD 9 PACK 3 / CARD 5 ITEM 1 / GARNETS 2"; garnets default to 0 on item 1
    GameCase(
        "palindrome",
        3,
        "Round 1 bidding",
        ("CARD 3 PACK 1",),
        "bid",
        {"cards": [{"card": 3, "pack": 1, "item": None}], "garnets": 0, "garnet_item": 1},
        after_first=True,
    ),
    # Example "STARTER ada"; p1, the protected player, chooses
    GameCase("abstrac", 2, "Choose starter", ("STARTER p2",), "starter", {"starter": "p2"}),
    # Example "BID 40 ON TILE 27 / BID 12 ON TILE 31"
    GameCase("domino", 3, "Auction 1", ("BID 10 ON TILE 3",), "bid", {"bids": [{"tile": 3, "chips": 10}]}),
    # Example "PICK AS 1 / PICK 7C 2 TOKEN 1.3 / ..."; seed 7 deals TD, 3D, AH, TH, 9H, 5D and JH
    # (not in the draft), so six other cards, no club (a club needs a token)
    GameCase(
        "clubs",
        3,
        "1A",
        ("PICK AS 1", "PICK KH 2", "PICK QD 3", "PICK 2S 4", "PICK 8H 5", "PICK 7D 6"),
        "draft",
        {
            "picks": [
                {"card": card, "priority": priority, "token": None}
                for priority, card in enumerate(["AS", "KH", "QD", "2S", "8H", "7D"], start=1)
            ],
            "lowered": [],
        },
        guests=True,
    ),
]


def table(case: GameCase) -> Fakes:
    """A match of the case's game on the fakes, its move's phase open, the mail sent so far kept
    (the notice the reply answers is the last one to p1)."""
    fakes = Fakes()
    players = [
        {
            "id": f"p{n}",
            "email": f"p{n}@example.com",
            **({"guests": [{"id": f"p{n}g1", "email": f"p{n}g1@example.com"}]} if case.guests else {}),
        }
        for n in range(1, case.players + 1)
    ]
    request = {"game": case.game, "players": players, "phase_seconds": 3600, "seed": 7}
    create_match(fakes.ports, MatchRequest.model_validate(request))
    if case.after_first:
        first = fakes.store.get(MID).phase
        assert first is not None
        fakes.clock.set(first.deadline)
        phases.resolve(fakes.ports, MID, first.number)
        phases.announce(fakes.ports, MID, first.number)
    return fakes


# -- the clients ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Notice:
    """The notice being answered, as the player's client shows it."""

    letter: Letter
    text: str

    @property
    def sender(self) -> str:
        return f"{self.letter.sender_name} <{self.letter.sender}>"


def quoted(text: str, prefix: str = "> ") -> str:
    return "\n".join((prefix + line).rstrip() for line in text.split("\n"))


def halves(text: str) -> tuple[str, str]:
    """The notice above its "To play" block, and the block."""
    above, _, below = text.partition("To play")
    return above, "To play" + below


def attribution_en(notice: Notice) -> str:
    return f"On Tue, 1 Dec 2026 at 12:00, {notice.sender} wrote:"


def gmail(move: str, notice: Notice) -> str:
    # Gmail wraps a long attribution inside the address
    name, _, address = attribution_en(notice).partition("<")
    return f"{move}\n\n{name}<\n{address}\n\n{quoted(notice.text)}\n"


def above_the_quote(attribution: str) -> Callable[[str, Notice], str]:
    """A client answering above the quoted notice, under `attribution` (its `{sender}` the
    notice's "name <address>")."""

    def body(move: str, notice: Notice) -> str:
        return f"{move}\n\n{attribution.format(sender=notice.sender)}\n\n{quoted(notice.text)}\n"

    return body


OUTLOOK_SIGNATURE = "Alex O'Brien – Team Captain\n+44 20 7946 0958"


def outlook_header(notice: Notice, labels: tuple[str, str, str, str] = ("From", "Sent", "To", "Subject")) -> str:
    sender, sent, to, subject = labels
    return (
        f"{sender}: {notice.sender}\n{sent}: Tuesday, December 1, 2026 12:00 PM\n{to}: {SENDER}\n"
        f"{subject}: {notice.letter.subject}"
    )


def outlook_plain(move: str, notice: Notice) -> str:
    """Outlook (Windows, Mac, web) writing plain text: its signature has no "-- ", and the notice
    follows its header block unquoted."""
    return f"{move}\n\n{OUTLOOK_SIGNATURE}\n\n{'_' * 32}\n{outlook_header(notice)}\n\n{notice.text}\n"


def outlook_french(move: str, notice: Notice) -> str:
    header = outlook_header(notice, ("De ", "Envoyé ", "À ", "Objet "))
    return f"{move}\n\nCordialement,\nCamille\n\n-----Message d'origine-----\n{header}\n\n{notice.text}\n"


def outlook_mobile(move: str, notice: Notice) -> str:
    return f"{move}\n\nGet Outlook for Android\n\n{outlook_header(notice)}\n\n{notice.text}\n"


def thunderbird(move: str, notice: Notice) -> str:
    """Thunderbird's default: the answer below the quote, the signature under it."""
    attribution = f"On 01/12/2026 12:00, {notice.letter.sender_name} wrote:"
    return f"{attribution}\n{quoted(notice.text)}\n\n{move}\n\n-- \nGrace Hopper\n"


def inline(move: str, notice: Notice) -> str:
    """The answer between two halves of the quote, indented, in lower case."""
    above, below = halves(notice.text)
    answer = "\n".join("    " + line.lower() for line in move.split("\n"))
    return f"{attribution_en(notice)}\n{quoted(above)}\n\n{answer}\n\n{quoted(below)}\n"


def iphone(move: str, notice: Notice) -> str:
    attribution = f"On 1 Dec 2026, at 12:00, {notice.sender} wrote:"
    return f"{move}\n\nSent from my iPhone\n\n{quoted(attribution + chr(10) + chr(10) + notice.text)}\n"


def sign_off(move: str, notice: Notice) -> str:
    """A person's greeting and sign-off around the move, over a Spanish client's quote."""
    attribution = f"El mar, 1 dic 2026 a las 12:00, {notice.letter.sender_name} (<{notice.letter.sender}>) escribió:"
    return f"Hi,\n\n{move}\n\nCheers,\nCara\n\n{attribution}\n{quoted(notice.text)}\n"


def forwarded(move: str, notice: Notice) -> str:
    return (
        f"{move}\n\n---------- Forwarded message ---------\nFrom: {notice.sender}\n"
        f"Date: Tue, 1 Dec 2026 at 12:00\nSubject: {notice.letter.subject}\n\n{notice.text}\n"
    )


def html_alternative(
    plain: Callable[[str, Notice], str], html: Callable[[str, Notice], str]
) -> Callable[[str, Notice, EmailMessage], None]:
    """A client sending both a plain and an HTML part."""

    def body(move: str, notice: Notice, reply: EmailMessage) -> None:
        reply.set_content(plain(move, notice))
        reply.add_alternative(html(move, notice), subtype="html")

    return body


def paragraphs(text: str) -> str:
    return "".join(f"<p>{line}</p>" if line.strip() else "<p><br></p>" for line in text.split("\n"))


def outlook_web_html(move: str, notice: Notice) -> str:
    return (
        f'<div>{paragraphs(move)}</div><div id="Signature">{paragraphs(OUTLOOK_SIGNATURE)}</div>'
        f'<hr><div id="divRplyFwdMsg"><b>From:</b> {notice.letter.sender}<br><b>Sent:</b> Tuesday</div>'
        f"<div>{paragraphs(notice.text)}</div>"
    )


def outlook_windows_html(move: str, notice: Notice) -> str:
    first, _, phone = OUTLOOK_SIGNATURE.partition("\n")
    return (
        f'{paragraphs(move)}<p class="MsoNormal"><a name="_MailAutoSig">{first}</a></p>'
        f'<p class="MsoNormal">{phone}</p><div style="border-top:solid #E1E1E1 1.0pt">'
        f"<p><b>From:</b> {notice.letter.sender}<br><b>Sent:</b> Tuesday</p></div>{paragraphs(notice.text)}"
    )


def thunderbird_html(move: str, notice: Notice) -> str:
    return (
        f'<div class="moz-cite-prefix">On 01/12/2026 12:00, {notice.letter.sender_name} wrote:<br></div>'
        f'<blockquote type="cite">{paragraphs(notice.text)}</blockquote>{paragraphs(move)}'
        '<pre class="moz-signature" cols="72">-- \nGrace Hopper</pre>'
    )


def gmail_html(move: str, notice: Notice) -> str:
    return (
        f'<div dir="ltr">{paragraphs(move)}</div><br><div class="gmail_quote"><div class="gmail_attr">'
        f"{attribution_en(notice).replace('<', '&lt;').replace('>', '&gt;')}<br></div>"
        f'<blockquote class="gmail_quote">{paragraphs(notice.text)}</blockquote></div>'
    )


SIGN_OFF = ("Hi,", "Cheers,", "Cara")
PLAIN_STYLES: dict[str, tuple[Callable[[str, Notice], str], tuple[str, ...]]] = {
    # style: (the reply's body, the lines the answer lists as left unread)
    "gmail": (gmail, ()),
    "gmail in German": (above_the_quote("Am Di., 1. Dez. 2026 um 12:00 Uhr schrieb {sender}:"), ()),
    "gmail in Dutch": (above_the_quote("Op di 1 dec. 2026 om 12:00 schreef {sender}:"), ()),
    "gmail in Italian": (above_the_quote("Il giorno mar 1 dic 2026 alle ore 12:00 {sender} ha scritto:"), ()),
    "gmail in Portuguese": (above_the_quote("Em ter., 1 de dez. de 2026 às 12:00, {sender} escreveu:"), ()),
    "outlook plain": (outlook_plain, tuple(OUTLOOK_SIGNATURE.split("\n"))),
    "outlook in French": (outlook_french, ("Cordialement,", "Camille")),
    "outlook mobile": (outlook_mobile, ()),
    "thunderbird below the quote": (thunderbird, ()),
    "inline between quotes": (inline, ()),
    "apple mail": (above_the_quote("On 1 Dec 2026, at 12:00, {sender} wrote:"), ()),
    "iphone": (iphone, ()),
    "a sign-off over a Spanish quote": (sign_off, SIGN_OFF),
    "forwarded": (forwarded, ()),
}
HTML_STYLES: dict[str, tuple[Callable[[str, Notice, EmailMessage], None], tuple[str, ...]]] = {
    # Outlook's HTML marks its signature: the HTML is read, the signature cut
    "outlook web html": (html_alternative(outlook_plain, outlook_web_html), ()),
    "outlook windows html": (html_alternative(outlook_plain, outlook_windows_html), ()),
    "thunderbird html below the quote": (html_alternative(thunderbird, thunderbird_html), ()),
    "gmail html": (html_alternative(gmail, gmail_html), ()),
}
STYLES = sorted([*PLAIN_STYLES, *HTML_STYLES])


def reply(style: str, move: str, notice: Notice) -> bytes:
    """The player's reply to the notice, threaded under it as their client threads it."""
    mail = EmailMessage()
    mail["From"] = f"Player One <{SENDER}>"
    mail["To"] = f"{MID}@play.test"
    mail["Subject"] = f"Re: {notice.letter.subject}"
    mail["Message-ID"] = "<reply-1@example.com>"
    if style != "forwarded":
        mail["In-Reply-To"] = notice.letter.message_id
        mail["References"] = notice.letter.message_id
    if style in PLAIN_STYLES:
        mail.set_content(PLAIN_STYLES[style][0](move, notice))
    else:
        HTML_STYLES[style][0](move, notice, mail)
    return mail.as_bytes()


def unread(style: str) -> tuple[str, ...]:
    return (PLAIN_STYLES.get(style) or HTML_STYLES[style])[1]


def the_notice(fakes: Fakes) -> Notice:
    """The latest notice mailed to p1, its text as their client shows it."""
    raw = [mail.raw for mail in fakes.mailer.sent if mail.to == SENDER][-1]
    whole = parse_message(raw)
    return Notice(whole, whole.text)


@pytest.mark.parametrize("case", GAMES, ids=[case.game for case in GAMES])
@pytest.mark.parametrize("style", STYLES)
def test_a_reply_from_each_client_in_each_game_takes_its_move_and_is_answered_once(style: str, case: GameCase) -> None:
    fakes = table(case)
    notice = the_notice(fakes)
    assert not set(case.move) & set(notice.text.split("\n"))  # the notice's example is another move
    fakes.mailer.sent.clear()

    outcome = receive(fakes.ports, receipt(reply(style, "\n".join(case.move), notice)))

    assert outcome is Outcome.ANSWERED
    number = fakes.store.get(MID).phase.number  # type: ignore[union-attr]
    assert fakes.store.submissions(MID, number) == {"p1": {case.kind: case.stored}}
    [answer] = fakes.mailer.sent
    letter = parse_message(answer.raw)
    assert (answer.to, letter.in_reply_to) == (SENDER, "<reply-1@example.com>")
    assert f"Accepted for {case.phase}:" in letter.text
    listed = ["Not read (taken for a greeting or a sign-off):", *("  " + line for line in unread(style))]
    assert ("\n".join(listed) in letter.text) if unread(style) else ("Not read" not in letter.text)


# -- Abstrac's repeating move phases ---------------------------------------------------------------


def test_a_reply_to_an_earlier_laying_moves_notice_is_not_laid_in_the_open_one() -> None:
    # p1 names p2 starter (phase 1); p2 lays 1R (phase 2, "Laying move"); phase 3 is p1's
    # "Laying move". p1's reply to phase 2's notice is not laid in phase 3; their reply to phase
    # 3's notice is.
    fakes = table(GameCase("abstrac", 2, "Choose starter", (), "starter", {}))
    moves = [("p1", "starter", {"starter": "p2"}), ("p2", "lay", {"cards": ["1R"]})]
    notices = []  # the notice p1 was sent as each phase after the first opened
    for player, kind, submission in moves:
        opened = fakes.store.get(MID).phase
        assert opened is not None
        submit(fakes.ports, SubmissionRequest(MID, player, opened.name, kind, submission, "test"))
        fakes.clock.set(opened.deadline)
        phases.resolve(fakes.ports, MID, opened.number)
        phases.announce(fakes.ports, MID, opened.number)
        notices.append(the_notice(fakes))
    phase_2, phase_3 = notices
    fakes.mailer.sent.clear()

    receive(fakes.ports, receipt(reply("thunderbird below the quote", "LAY 2R", phase_2)))

    assert fakes.store.submissions(MID, 3) == {}
    [refusal] = fakes.mailer.sent
    said = " ".join(parse_message(refusal.raw).text.split())
    assert "your mail answers the mail for phase 2 (Laying move), and phase 3 (Laying move) is open now." in said
    assert "To send your moves for Laying move, reply to this mail with them." in said  # Abstrac names no phase

    fakes.mailer.sent.clear()
    receive(fakes.ports, receipt(reply("gmail", "LAY 2R", phase_3).replace(b"reply-1", b"reply-2")))

    assert fakes.store.submissions(MID, 3) == {"p1": {"lay": {"cards": ["2R"]}}}
