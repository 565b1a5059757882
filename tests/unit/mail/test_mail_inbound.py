"""parse_message on a corpus of hand-written messages as the common clients send them (each file
with what a person reads as the sender's own writing), then on the rules one at a time: quote and
signature styles, charsets, HTML, JSON bodies, and inputs that are not mail at all."""

from __future__ import annotations

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest

from game_core.mail import html_text, inbound
from game_core.mail.inbound import MAX_BYTES, MAX_TEXT, Letter, parse_message

CORPUS = Path(__file__).parent / "corpus"
GENIUS = "m-6604cfc546dc@play.genius.example"
ROUND_3 = "<179612000000.1200.11@play.genius.example>"
ROUND_4 = "<179620000000.1300.12@play.genius.example>"

EXPECTED: dict[str, dict[str, object]] = {
    "gmail_reply.eml": {
        "sender": "ada.lovelace@gmail.com",
        "sender_name": "Ada Lovelace",
        "to": (GENIUS,),
        "subject": "Re: [m-6604cfc546dc] Pushing Crates: round 3 is open",
        "message_id": "<CAJ7q+Lm4k1XyZ9d0Lw3=rN2sHbq8vGx_5e1pUoQ@mail.gmail.com>",
        "in_reply_to": ROUND_3,
        "references": (ROUND_3,),
        "text": "ROUND 3\nPUSH C L",
    },
    "apple_mail.eml": {
        "sender": "charles@babbage.example",
        "sender_name": "Charles Babbage",
        "to": (GENIUS,),
        "cc": ("ada.lovelace@gmail.com",),
        "message_id": "<9C1D2E3F-4A5B-4C6D-8E7F-901A2B3C4D5E@babbage.example>",
        "references": ("<179600000000.1000.7@play.genius.example>", ROUND_3),
        "text": "ROUND 3\nGROUND ICE",
    },
    "apple_mail_unquoted_attribution.eml": {"text": "PUSH B U", "in_reply_to": "", "references": ()},
    "thunderbird.eml": {
        "sender": "grace@hopper.example",
        "sender_name": "Grace Hopper",
        "to": (GENIUS,),
        "text": "ROUND 3\nPUSH A D\n\nThis time I will explain my reasoning in a long line that Thunderbird wraps at "
        "seventy-two characters and marks as flowed with a trailing space.",
    },
    "outlook_desktop.eml": {
        "sender": "alan.turing@contoso.example",
        "sender_name": "Turing, Alan",
        "subject": "RE: Pushing Crates: round 3 is open",
        "message_id": "<AM6PR05MB5893A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6@AM6PR05MB5893.eurprd05.prod.outlook.example>",
        "text": "ROUND 3\nPUSH E R\n\nRegards,\nAlan",
    },
    "outlook_web.eml": {"sender": "katherine.johnson@outlook.example", "text": "ROUND 3\nPUSH F L"},
    "html_only.eml": {
        "sender": "hedy@lamarr.example",
        "in_reply_to": ROUND_3,
        "text": "ROUND 3\nPUSH B D\nCrates & ice — <careful>, café\nline one\nline two\nline three",
    },
    "quoted_printable.eml": {
        "sender_name": "Emmy Nöther",
        "subject": "Re: Pushing Crates: round 3 — open",
        "text": "ROUND 3\nPUSH D U\n\nA long line that the sender's client broke with soft line breaks, which "
        "quoted-printable joins again, and a price of 5 €, and an equals sign = here.",
    },
    "base64.eml": {
        "in_reply_to": ROUND_4,
        "references": ("<179600000000.1000.7@play.genius.example>", ROUND_3, ROUND_4),
        "text": "ROUND 4\nPUSH A R\n\nMerci — à bientôt !",
    },
    "iso_8859_1.eml": {
        "sender": "zoe.muller@example.fr",
        "sender_name": "Zoë Müller",
        "cc": ("jose.garcia@example.es",),
        "subject": "Réponse à la manche 4",
        "text": "ROUND 4\nPUSH C D\n\nZoë et José jouent ensemble. À bientôt.",
    },
    "windows_1252.eml": {
        "sender_name": "Renée Dupont",
        "subject": "“Round 4” – my push",
        "text": "ROUND 4\nPUSH A L\n\n“Smart quotes” and ‘single’ ones – and 20€ …",
    },
    "signature.eml": {
        "sender": "leslie@lamport.example",
        "sender_name": "",
        "to": ("play+m-6604cfc546dc@play.genius.example",),
        "text": "  ROUND 4\n  PUSH E D",
    },
    "iphone.eml": {"sender_name": "Barbara Liskov", "references": (ROUND_4,), "text": "ROUND 4\nGROUND ICE"},
    "attachment.eml": {"text": "ROUND 4\nPUSH B L\n\nThe board is attached."},
    "empty_body.eml": {"subject": "", "text": "", "json_body": None},
    "json_body.eml": {
        "sender_name": "Edsger's bot",
        "subject": "[m-6604cfc546dc] submission",
        "text": '{\n  "kind": "push",\n  "round": 4,\n  "crate": "C",\n  "direction": "L"\n}',
        "json_body": {"kind": "push", "round": 4, "crate": "C", "direction": "L"},
    },
    "two_blocks.eml": {
        "text": "ROUND 4\nPUSH C L\nGROUND ICE\n\nROUND 5\nPUSH A R\n  indented on purpose    ",
        "json_body": None,
    },
    "forwarded.eml": {"text": "I sent this to the wrong address, here it is again."},
}


def test_every_corpus_file_has_its_expectation() -> None:
    assert sorted(path.name for path in CORPUS.glob("*.eml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus(name: str) -> None:
    letter = parse_message((CORPUS / name).read_bytes())
    assert {field: getattr(letter, field) for field in EXPECTED[name]} == EXPECTED[name]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("gmail_reply.eml", "ROUND 3\nPUSH C L"),
        ("apple_mail.eml", "ROUND 3\nGROUND ICE"),
        ("outlook_desktop.eml", "ROUND 3\nPUSH E R"),
        ("attachment.eml", "ROUND 4\nPUSH B L\n\nThe board is attached."),
    ],
)
def test_the_html_alternative_alone_reads_the_same(name: str, text: str) -> None:
    whole = message_from_bytes((CORPUS / name).read_bytes(), policy=default)
    assert isinstance(whole, EmailMessage)
    html = whole.get_body(preferencelist=("html",))
    assert html is not None
    alone = EmailMessage()
    alone.set_content(html.get_content(), subtype="html")
    assert parse_message(bytes(alone)).text == text


def plain(body: str, charset: str = "utf-8", **headers: str) -> bytes:
    head = "".join(f"{name.replace('_', '-')}: {value}\n" for name, value in headers.items())
    return (f"{head}Content-Type: text/plain; charset={charset}\n\n").encode() + body.encode("utf-8")


@pytest.mark.parametrize(
    ("body", "written"),
    [
        ("PUSH A L\n\nOn Tue, Dec 1, 2026 at 12:00 PM Ada <ada@x.org> wrote:\n> ROUND 2", "PUSH A L"),
        ("PUSH A L\n\nOn Tue, Dec 1, 2026 at 12:00 PM Ada Lovelace <\nada@x.org> wrote:\n\n> old", "PUSH A L"),
        ("PUSH A L\nOn 1 Dec 2026, at 12:00, Ada <ada@x.org> wrote:\n\nold", "PUSH A L"),
        ("PUSH A L\n\nOn 01/12/2026 12:00, Ada wrote:\n> old", "PUSH A L"),
        ("PUSH A L\n\n-----Original Message-----\nFrom: Ada\nSent: Tuesday\nold", "PUSH A L"),
        ("PUSH A L\n\nFrom: Ada <ada@x.org>\nSent: Tuesday, December 1, 2026 12:00\nTo: x\nSubject: y", "PUSH A L"),
        ("PUSH A L\n\n*From:* Ada <ada@x.org>\n*Date:* Tuesday\n*Subject:* y", "PUSH A L"),
        ("PUSH A L\n________________________________\nFrom: Ada\nSent: Tuesday\nTo: x\nSubject: y", "PUSH A L"),
        ("PUSH A L\n\n---------- Forwarded message ---------\nFrom: Ada\n\nROUND 2", "PUSH A L"),
        ("PUSH A L\n\nBegin forwarded message:\n\nFrom: Ada", "PUSH A L"),
        ("PUSH A L\n-- \nAda", "PUSH A L"),
        ("PUSH A L\n--\nAda", "PUSH A L"),
        ("PUSH A L\n\nSent from my iPhone", "PUSH A L"),
        ("PUSH A L\n\nSent from my Android", "PUSH A L"),
        ("PUSH A L\n\nGet Outlook for iOS<https://aka.ms/o0ukef>", "PUSH A L"),
        ("PUSH A L\n\nGet Outlook for Android", "PUSH A L"),
        ("PUSH A L\n\nSent from Mail for Windows", "PUSH A L"),
        ("> ROUND 2 is open\nROUND 2\n> what is your push?\nPUSH A L\n", "ROUND 2\nPUSH A L"),
        ("\n\n  \nROUND 2\n\n\nPUSH A L\n\n\n", "ROUND 2\n\n\nPUSH A L"),
        ("From: the north side\nPUSH A L", "From: the north side\nPUSH A L"),
        ("ROUND 2\n-- not a signature\n__init__", "ROUND 2\n-- not a signature\n__init__"),
        ("Line one\r\nLine two\rLine three\r\n", "Line one\nLine two\nLine three"),
        # Thunderbird's default: the answer below the quote, the signature under it
        ("On 01/12/2026 12:00, Genius wrote:\n> ROUND 2\n> PUSH B R\n\nPUSH A L\n\n-- \nAda", "PUSH A L"),
        # an inline answer between two quoted halves, indented
        (
            "On Tue, 1 Dec 2026 at 12:00, Genius <g@x.org> wrote:\n> Round 2 is open.\n>\n"
            "   push a l\n\n> Example:\n>   PUSH B R\n",
            "   push a l",
        ),
        ("> Round 2 is open.\n\n  STATUS  \n> > older\n>\nHELP", "  STATUS  \nHELP"),
        # attributions in the languages the big clients write them, then the answer below
        ("Am 01.12.2026 um 12:00 schrieb Genius <g@x.org>:\n> old\nPUSH A L", "PUSH A L"),
        ("Le mar. 1 déc. 2026 à 12:00, Genius <g@x.org> a écrit :\n> old\nPUSH A L", "PUSH A L"),
        ("El mar, 1 dic 2026 a las 12:00, Genius (<g@x.org>) escribió:\n> old\nPUSH A L", "PUSH A L"),
        ("Op di 1 dec. 2026 om 12:00 schreef Genius <g@x.org>:\n> old\nPUSH A L", "PUSH A L"),
        ("Il giorno mar 1 dic 2026 alle ore 12:00 Genius <g@x.org> ha scritto:\n> old\nPUSH A L", "PUSH A L"),
        ("Em ter., 1 de dez. de 2026 às 12:00, Genius <g@x.org> escreveu:\n> old\nPUSH A L", "PUSH A L"),
        ("Den tis 1 dec. 2026 kl 12:00 skrev Genius <g@x.org>:\n> old\nPUSH A L", "PUSH A L"),
        ("2026年12月1日(火) 12:00 Genius <g@x.org>:\n> old\nPUSH A L", "PUSH A L"),
        ("PUSH A L\n\nLe 01/12/2026 à 12:00, Genius a\nécrit :\n> old", "PUSH A L"),
        # an attribution over old text that is not quoted: nothing below it is the sender's
        ("PUSH A L\n\nAm 01.12.2026 um 12:00 schrieb Genius <g@x.org>:\n\nPUSH B R", "PUSH A L"),
        # Outlook's header block and separators, and the phones' footers, in other languages
        ("PUSH A L\n\nVon: Genius <g@x.org>\nGesendet: Dienstag, 1. Dezember 2026 12:00\nAn: Ada\nold", "PUSH A L"),
        ("PUSH A L\n\nDe : Genius <g@x.org>\nEnvoyé : mardi 1 décembre 2026 12:00\nÀ : Ada\nold", "PUSH A L"),
        ("PUSH A L\n\nDe: Genius\nEnviado: martes, 1 de diciembre de 2026 12:00\nold", "PUSH A L"),
        ("PUSH A L\n\n-----Ursprüngliche Nachricht-----\nold", "PUSH A L"),
        ("PUSH A L\n\n-----Message d'origine-----\nold", "PUSH A L"),
        ("PUSH A L\n\n---------- Weitergeleitete Nachricht ---------\nold", "PUSH A L"),
        ("PUSH A L\n\nVon meinem iPhone gesendet", "PUSH A L"),
        ("PUSH A L\n\nEnvoyé de mon iPhone", "PUSH A L"),
        ("PUSH A L\n\nEnviado desde mi iPhone", "PUSH A L"),
        # what only looks like the start of an attribution stays the sender's
        (
            "MULTIPLIERS 2 1 1 0 -1 -1\nOn 1 Dec 2026, at 12:00, Ada <ada@x.org> wrote:\n> old",
            "MULTIPLIERS 2 1 1 0 -1 -1",
        ),
        ("PUSH A L\nI wrote: here", "PUSH A L\nI wrote: here"),
        # an attribution is at most 400 characters: a longer line is never tried (the patterns
        # backtrack over a line)
        (
            "PUSH A L\nOn 1 Dec 2026, " + "x" * 400 + " wrote:\n> old",
            "PUSH A L\nOn 1 Dec 2026, " + "x" * 400 + " wrote:",
        ),
    ],
)
def test_what_was_written(body: str, written: str) -> None:
    assert parse_message(plain(body)).text == written


@pytest.mark.parametrize(
    ("charset", "payload", "text"),
    [
        ("utf-8", "Zoë €".encode(), "Zoë €"),
        ("iso-8859-1", "Zoë".encode("latin-1") + b"\x80", "Zoë€"),  # labelled Latin-1, written in Windows-1252
        ("us-ascii", "Zoë €".encode(), "Zoë €"),  # mislabelled UTF-8
        ("us-ascii", "Zoë".encode("latin-1"), "Zoë"),
        ("x-klingon", "Zoë €".encode(), "Zoë €"),
        ("x-klingon", "Zoë".encode("latin-1"), "Zoë"),
        ("base64", b"Zo\xc3\xab", "Zoë"),  # a bytes-to-bytes codec is no charset
        ("utf-8", b"Zo\xff", "Zo\ufffd"),
        ("shift_jis", "将棋".encode("shift_jis"), "将棋"),
    ],
)
def test_charsets(charset: str, payload: bytes, text: str) -> None:
    raw = f"Content-Type: text/plain; charset={charset}\nContent-Transfer-Encoding: 8bit\n\n".encode() + payload
    assert parse_message(raw).text == text


def test_format_flowed_with_delsp_joins_without_the_space() -> None:
    raw = (
        b"Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\nPUSH A L and a lo \nng word\n Stuffed\n"
    )
    assert parse_message(raw).text == "PUSH A L and a long word\nStuffed"


def test_html_pre_keeps_its_lines_and_an_unclosed_head_ends_at_body() -> None:
    html = "<html><head><title>x</title><body><pre>A  B\n C</pre><p>after</p></body>"
    assert parse_message(plain(html).replace(b"text/plain", b"text/html")).text == "A  B\n C\nafter"


def alternative(plain_text: str, html: str) -> bytes:
    """A multipart/alternative message, as the HTML clients send one."""
    mail = EmailMessage()
    mail.set_content(plain_text)
    mail.add_alternative(html, subtype="html")
    return mail.as_bytes()


OUTLOOK_PLAIN = (
    "MULTIPLIERS 2 1 1 0 -1 -1\n\nAlex O'Brien – Team Captain\n+44 20 7946 0958\n\nFrom: Genius\nSent: today\nold"
)


@pytest.mark.parametrize(
    ("raw", "written"),
    [
        # a <blockquote> is quoted: Thunderbird's HTML answer below the quote is read
        (
            alternative(
                "",
                '<div class="moz-cite-prefix">On 01/12/2026 12:00, Genius wrote:<br></div>'
                "<blockquote><p>ROUND 2</p><p>PUSH B R</p></blockquote><p>PUSH A L</p>"
                '<pre class="moz-signature" cols="72">-- \nAda</pre>',
            ),
            "PUSH A L",
        ),
        # Outlook on the web marks its signature (id="Signature"); its plain part cannot
        (
            alternative(
                OUTLOOK_PLAIN,
                '<div>MULTIPLIERS 2 1 1 0 -1 -1</div><div><br></div><div id="Signature"><p>Alex O\'Brien – Team '
                'Captain</p><p>+44 20 7946 0958</p></div><hr><div id="divRplyFwdMsg"><b>From:</b> Genius<br>'
                "<b>Sent:</b> today</div><div>old</div>",
            ),
            "MULTIPLIERS 2 1 1 0 -1 -1",
        ),
        # Outlook for Windows: the bookmark _MailAutoSig opens the signature
        (
            alternative(
                OUTLOOK_PLAIN,
                '<p class="MsoNormal">MULTIPLIERS 2 1 1 0 -1 -1</p><p class="MsoNormal"><a name="_MailAutoSig">'
                'Alex O\'Brien – Team Captain</a></p><p class="MsoNormal">+44 20 7946 0958</p>'
                '<div style="border-top:solid"><p><b>From:</b> Genius<br><b>Sent:</b> today</p></div>',
            ),
            "MULTIPLIERS 2 1 1 0 -1 -1",
        ),
        # Gmail's signature, and its quote: inline answers between two quoted halves
        (
            alternative(
                "",
                "<div>Hello all,</div><div><br></div>"
                '<div class="gmail_quote"><div class="gmail_attr">On Tue, 1 Dec 2026 at 12:00, Genius &lt;g@x.org&gt;'
                " wrote:<br></div><blockquote>Round 2 is open.</blockquote><div>  push a l</div>"
                "<blockquote><blockquote>Example: PUSH B R</blockquote></blockquote></div><div>Cheers,</div>"
                '<div class="gmail_signature">Ada<br>+1 555 0100</div>',
            ),
            "Hello all,\n\npush a l\nCheers,",
        ),
        # a signature marked inside the quote is the quoted message's: the answer below it is read
        (
            plain(
                '<div class="moz-cite-prefix">On 01/12/2026 12:00, Bo wrote:<br></div><blockquote type="cite">'
                '<p>PUSH B R</p><div class="moz-signature">-- <br>Bo</div></blockquote><p>PUSH A L</p>'
            ).replace(b"text/plain", b"text/html"),
            "PUSH A L",
        ),
        # with no marked signature the plain part is read as before
        (alternative(OUTLOOK_PLAIN, "<p>MULTIPLIERS 2 1 1 0 -1 -1</p>"), OUTLOOK_PLAIN.split("\n\nFrom:")[0]),
    ],
)
def test_html_quotes_and_marked_signatures(raw: bytes, written: str) -> None:
    assert parse_message(raw).text == written


@pytest.mark.parametrize(
    ("body", "json_body"),
    [
        ('{"kind": "push"}', {"kind": "push"}),
        ('  {"kind": "push"}\n\n-- \nAda', {"kind": "push"}),
        ('{"kind": "push"}\n\nOn Tue, Dec 1, 2026 at 12:00 PM Ada <ada@x.org> wrote:\n> {"old": 1}', {"kind": "push"}),
        ("[1, 2]", None),
        ("12", None),
        ('{"kind": "push"', None),
        ("PUSH A L", None),
        ("{" * 100_000 + "}" * 100_000, None),
    ],
)
def test_json_body(body: str, json_body: object) -> None:
    assert parse_message(plain(body)).json_body == json_body


def test_an_html_json_body_counts() -> None:
    html = b'Content-Type: text/html\n\n<div>{"kind":</div><div>"push"}</div><blockquote>{"old": 1}</blockquote>'
    assert parse_message(html).json_body == {"kind": "push"}


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\xff\xfe",
        b"From: \nTo: ,,,@\nSubject: =?x-unknown?q?=FF?=\nMessage-ID: junk\n\n",
        b"From: <@>\nContent-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: application/pdf\n\n%PDF\n--x--\n",
        b"Content-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n",
        b"Content-Type: text/plain\nContent-Disposition: attachment\n\nnot the body\n",
        b"Content-Type: multipart/alternative; boundary=b\n\n"
        + b"--b\nContent-Type: multipart/mixed; boundary=b\n\n" * 3000,
        b"Content-Transfer-Encoding: base64\n\n@@@not base64 at all===\n",
    ],
)
def test_what_is_not_mail_reads_without_raising(raw: bytes) -> None:
    letter = parse_message(raw)
    assert letter.sender == "" and letter.sender_name == "" and letter.message_id == ""
    assert isinstance(letter.text, str) and letter.json_body is None


def test_an_address_without_a_domain_is_no_sender() -> None:
    assert parse_message(b"From: Ada <ada>\nTo: Bob <bob@x.org>, carol\n\nhi").sender == ""
    assert parse_message(b"From: Ada <ada>\nTo: Bob <bob@x.org>, carol\n\nhi").to == ("bob@x.org",)


def test_work_is_bounded_on_a_huge_message(monkeypatch: pytest.MonkeyPatch) -> None:
    # Counted, not timed: the stdlib parser is handed at most MAX_BYTES of a 20 MB message
    handed: list[int] = []
    real = inbound.email.message_from_bytes

    def counting(raw: bytes, **options: object) -> object:
        handed.append(len(raw))
        return real(raw, **options)

    monkeypatch.setattr(inbound.email, "message_from_bytes", counting)
    huge = plain("PUSH A L\n" + ("x" * 999 + "\n") * 20_000)  # 20 MB
    letter = parse_message(huge)
    assert handed == [MAX_BYTES]
    assert letter.text.startswith("PUSH A L\nxxx") and len(letter.text) <= MAX_TEXT


def test_a_letter_has_empty_defaults() -> None:
    assert Letter() == parse_message(b"")


@pytest.mark.parametrize("html", [b"<!--" * 37_000, b'<a b="' * 25_000, b"<" * 150_000, b"<div>" * 30_000])
def test_work_is_bounded_on_pathological_html(html: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    # Counted, not timed: html.parser's close() rescans what is left unparsed from each "<" in it
    # (quadratic), so it may only ever see a short remainder
    remainders: list[int] = []
    real = html_text.HtmlText.close

    def counting(reader: html_text.HtmlText) -> None:
        remainders.append(len(reader.rawdata))
        real(reader)

    monkeypatch.setattr(html_text.HtmlText, "close", counting)
    parse_message(b"Content-Type: text/html\n\n" + html)
    # beside a plain part too: the HTML is read for a marked signature
    boundary = b"--b\nContent-Type: text/plain\n\nPUSH A L\n--b\nContent-Type: text/html\n\n"
    parse_message(b"Content-Type: multipart/alternative; boundary=b\n\n" + boundary + html + b"\n--b--\n")
    assert all(remainder <= html_text.UNPARSED_LIMIT for remainder in remainders)
