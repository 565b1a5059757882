"""Mail from real clients, round 2 (after test_mail_clients_commands'): signed mail (S/MIME and
PGP/MIME's multipart/signed, PGP's inline clear signing), encrypted mail (S/MIME's enveloped data,
PGP/MIME, an inline PGP message), Outlook's rich text (winmail.dat), and the charsets and transfer
encodings Japanese, Chinese, Russian and Western clients write (full-width letters from an input
method, a byte order mark, a misspelt label), each run through `mail_in.receive` on the fakes.

A signed mail is read exactly as if unsigned; a mail that cannot be read (encrypted, opaque S/MIME
signing, rich text alone) is refused naming why and what to send instead, and changes nothing.

The replies are written here after what each client does (the MIME structure built with the
email package; the signatures and ciphertexts are placeholders: nothing checks them), not copied
from any client's bytes. Ada, Bo and Cy play Pushing Crates in the Pregame, as in
test_mail_clients_commands.
"""

from __future__ import annotations

import email
import email.policy
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage

import pytest
from fakes import Fakes
from test_mail_clients import HTML_STYLES, OUTLOOK_SIGNATURE, PLAIN_STYLES, SENDER, Notice, quoted, reply
from test_mail_clients_commands import (
    DEAL,
    MID,
    MORE_STYLES,
    MULTIPLIERS,
    PLAYERS,
    Expected,
    Message,
    Refused,
    Vote,
    answers_the_notice,
)
from test_service_mail_in import HOST, receipt, round_one, the_answer

from game_core.mail.inbound import ENCRYPTED, OPAQUE_SIGNED, RICH_TEXT, parse_message
from game_core.service.mail.receive import receive

Writer = Callable[[str, Notice], EmailMessage]
"""A client: what Ada writes and the notice she answers, as the content of her reply."""


# -- the clients' parts -----------------------------------------------------------------------------


def as_style(style: str) -> Writer:
    """The content one of the earlier files' clients writes, as a part of its own."""

    def part(body: str, notice: Notice) -> EmailMessage:
        content = EmailMessage()
        if style in PLAIN_STYLES:
            content.set_content(PLAIN_STYLES[style][0](body, notice))
        elif style in HTML_STYLES:
            HTML_STYLES[style][0](body, notice, content)
        else:
            MORE_STYLES[style](body, notice, content)
        return content

    return part


def attachment(data: bytes, kind: str, filename: str) -> EmailMessage:
    part = EmailMessage()
    maintype, subtype = kind.split("/")
    part.set_content(data, maintype, subtype, filename=filename)
    return part


def multipart(kind: str, parts: list[EmailMessage], **params: str) -> EmailMessage:
    whole = EmailMessage()
    whole["Content-Type"] = kind
    for name, value in params.items():
        whole.set_param(name.replace("_", "-"), value)
    whole.set_payload(parts)
    return whole


ARMORED_SIGNATURE = (
    b"-----BEGIN PGP SIGNATURE-----\n\nwsF5BAABCAAjFiEEsignatureplaceholderAAAA\n=AbCd\n-----END PGP SIGNATURE-----\n"
)
ARMORED_KEY = b"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxsBNBGkeyplaceholder\n-----END PGP PUBLIC KEY BLOCK-----\n"
DER = b"0\x82\x06\x1f\x06\t*\x86H\x86\xf7\r\x01\x07\x02\xa0\x82\x06\x10"
"""The first bytes of a CMS structure (a SEQUENCE, the OID 1.2.840.113549.1.7.2): enough to look like one."""


def smime_signed(content: Writer) -> Writer:
    """S/MIME signed as clear text (RFC 8551 3.5.3): Outlook, Apple Mail and Thunderbird with a
    certificate; the text unchanged in the first part, smime.p7s the second."""

    def part(body: str, notice: Notice) -> EmailMessage:
        signature = attachment(DER, "application/pkcs7-signature", "smime.p7s")
        return multipart(
            "multipart/signed",
            [content(body, notice), signature],
            protocol="application/pkcs7-signature",
            micalg="sha-256",
        )

    return part


def thunderbird_pgp_signed(body: str, notice: Notice) -> EmailMessage:
    """Thunderbird's PGP/MIME signing (RFC 3156): the text and its key attached, in a multipart/mixed
    carrying the protected headers, then the signature."""
    signed = as_style("thunderbird below the quote")(body, notice)
    signed.add_attachment(ARMORED_KEY, "application", "pgp-keys", filename="OpenPGP_0x1F2E3D4C5B6A7988.asc")
    signed.set_param("protected-headers", "v1")
    signed["Subject"] = notice.letter.subject
    signature = attachment(ARMORED_SIGNATURE, "application/pgp-signature", "OpenPGP_signature.asc")
    return multipart(
        "multipart/signed",
        [signed, signature],
        protocol="application/pgp-signature",
        micalg="pgp-sha256",
    )


def proton(body: str, notice: Notice) -> str:
    """Proton Mail's plain part: its footer, then its attribution over the quoted notice."""
    attribution = f"On Tuesday, December 1st, 2026 at 12:00, {notice.sender} wrote:"
    return f"{body}\n\nSent with Proton Mail secure email.\n\n{attribution}\n\n{quoted(notice.text)}\n"


def proton_pgp_signed(body: str, notice: Notice) -> EmailMessage:
    """Proton Mail signing with PGP/MIME: plain and HTML, its public key attached, then the signature."""
    text = EmailMessage()
    text.set_content(proton(body, notice))
    html = "".join(f"<div>{line}</div>" for line in body.split("\n"))
    text.add_alternative(f'{html}<div class="protonmail_signature_block">Sent with Proton Mail</div>', subtype="html")
    key = attachment(ARMORED_KEY, "application/pgp-keys", "publickey - ada@proton.me - 0x1F2E3D4C.asc")
    signature = attachment(ARMORED_SIGNATURE, "application/pgp-signature", "signature.asc")
    return multipart(
        "multipart/signed",
        [multipart("multipart/mixed", [text, key]), signature],
        protocol="application/pgp-signature",
        micalg="pgp-sha512",
    )


def clear_signed(text: str) -> str:
    """`text` signed inline (RFC 4880 7): the armor line, its Hash header, the text with each line
    starting "-" escaped with "- ", then the signature."""
    escaped = "\n".join("- " + line if line.startswith("-") else line for line in text.rstrip("\n").split("\n"))
    return f"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n{escaped}\n{ARMORED_SIGNATURE.decode()}"


def inline_signed(style: str) -> Writer:
    """Thunderbird's or Enigmail's inline PGP: the whole plain reply signed, quote and all."""

    def part(body: str, notice: Notice) -> EmailMessage:
        content = EmailMessage()
        content.set_content(clear_signed(PLAIN_STYLES[style][0](body, notice)))
        return content

    return part


def smime_encrypted(body: str, notice: Notice) -> EmailMessage:
    """S/MIME encrypted (Outlook, Apple Mail): the whole message enveloped, smime.p7m."""
    part = attachment(DER + bytes(range(256)), "application/pkcs7-mime", "smime.p7m")
    part.set_param("smime-type", "enveloped-data")
    return part


def smime_opaque_signed(body: str, notice: Notice) -> EmailMessage:
    """S/MIME signed in the opaque form (Outlook with "Send clear text signed message" off): the
    text inside the signature's structure, smime.p7m."""
    part = attachment(
        DER + PLAIN_STYLES["outlook plain"][0](body, notice).encode(), "application/pkcs7-mime", "smime.p7m"
    )
    part.set_param("smime-type", "signed-data")
    return part


def pgp_encrypted(body: str, notice: Notice) -> EmailMessage:
    """PGP/MIME encrypted (RFC 3156 4): Thunderbird, Proton to an outside address, Mailvelope."""
    version = attachment(b"Version: 1\n", "application/pgp-encrypted", "")
    del version["Content-Disposition"]
    cipher = attachment(
        b"-----BEGIN PGP MESSAGE-----\n\nwV4DR2b2udXyHrYSAQdAciphertextplaceholder\n-----END PGP MESSAGE-----\n",
        "application/octet-stream",
        "encrypted.asc",
    )
    return multipart("multipart/encrypted", [version, cipher], protocol="application/pgp-encrypted")


def inline_encrypted(body: str, notice: Notice) -> EmailMessage:
    """An inline PGP message (Mailvelope in a webmail's plain text editor) above the quoted notice."""
    content = EmailMessage()
    cipher = "-----BEGIN PGP MESSAGE-----\n\nwV4DR2b2udXyHrYSAQdAciphertextplaceholder\n-----END PGP MESSAGE-----"
    content.set_content(PLAIN_STYLES["gmail"][0](cipher, notice))
    return content


WINMAIL = attachment(b"\x78\x9f\x3e\x22" + bytes(64), "application/ms-tnef", "winmail.dat")
"""Outlook's rich text (TNEF starts with its signature 0x223E9F78): only Outlook reads it."""


def rich_text_alone(body: str, notice: Notice) -> EmailMessage:
    """Outlook sending rich text through Exchange to an outside address: winmail.dat alone."""
    return WINMAIL


def rich_text_beside(plain: str) -> Writer:
    """Outlook's rich text beside a text part: an empty one, or Outlook's plain rendering of it."""

    def part(body: str, notice: Notice) -> EmailMessage:
        text = EmailMessage()
        text.set_content(PLAIN_STYLES["outlook plain"][0](body, notice) if plain else "\n")
        return multipart("multipart/mixed", [text, WINMAIL])

    return part


Text = Callable[[str, Notice], str]
"""A client's plain text: what Ada writes and the notice she answers, as the text it sends."""


def text_of(style: str) -> Text:
    return lambda body, notice: as_style(style)(body, notice).get_content()


def labelled(text: Text, label: str, codec: str, encoding: str = "base64", flowed: bool = False) -> Writer:
    """A client's plain text written in `codec` under the charset label `label`, in `encoding`."""

    def part(body: str, notice: Notice) -> EmailMessage:
        content = EmailMessage()
        content.set_content(text(body, notice).encode(codec), "text", "plain", cte=encoding)
        content.set_param("charset", label)
        if flowed:
            content.set_param("format", "flowed")
        return content

    return part


def iphone_in_japanese(body: str, notice: Notice) -> str:
    """A Japanese iPhone: its footer, then its attribution quoted with the notice."""
    attribution = f"2026/12/01 12:00、{notice.sender}のメール:"
    return f"{body}\n\niPhoneから送信\n\n{quoted(attribution + chr(10) + chr(10) + notice.text)}\n"


def thunderbird_in_russian(body: str, notice: Notice) -> str:
    """Thunderbird in Russian: the answer below the quote, under its attribution ending "пишет:"."""
    return f"01.12.2026 12:00, {notice.letter.sender_name} пишет:\n{quoted(notice.text)}\n\n{body}\n\n-- \nАда\n"


def foxmail(body: str, notice: Notice) -> str:
    """Foxmail (China): the notice under its separator and header block, unquoted."""
    return (
        f"{body}\n\n\n------------------ 原始邮件 ------------------\n发件人: {notice.sender};\n"
        f"发送时间: 2026年12月1日(星期二) 中午12:00\n收件人: {SENDER};\n"
        f"主题: {notice.letter.subject}\n\n{notice.text}\n"
    )


def with_bom(text: Text) -> Text:
    """The text after a byte order mark (Windows programs write one before UTF-8)."""
    return lambda body, notice: "\ufeff" + text(body, notice)


def soft_broken(body: str, notice: Notice) -> EmailMessage:
    """Quoted-printable whose soft line break (RFC 2045 6.7: "=" ending a line) splits the first line."""
    content = EmailMessage()
    content.set_content(PLAIN_STYLES["gmail"][0](body, notice), cte="quoted-printable")
    first = body.split("\n")[0]
    content.set_payload(content.get_payload().replace(first, f"{first[:7]}=\n{first[7:]}", 1))
    return content


CLIENTS: dict[str, Writer] = {
    # signed: read as if unsigned
    "outlook s/mime signed, its html marking its signature": smime_signed(as_style("outlook windows html")),
    "apple mail s/mime signed, flowed": smime_signed(as_style("apple mail flowed")),
    "thunderbird s/mime signed": smime_signed(as_style("thunderbird below the quote")),
    "thunderbird pgp/mime signed": thunderbird_pgp_signed,
    "proton pgp/mime signed": proton_pgp_signed,
    "thunderbird inline pgp signed": inline_signed("thunderbird below the quote"),
    "gmail inline pgp signed (mailvelope)": inline_signed("gmail"),
    # not to be read
    "outlook s/mime encrypted": smime_encrypted,
    "outlook s/mime opaque signed": smime_opaque_signed,
    "thunderbird pgp/mime encrypted": pgp_encrypted,
    "gmail inline pgp encrypted (mailvelope)": inline_encrypted,
    "outlook rich text alone": rich_text_alone,
    "outlook rich text beside an empty text": rich_text_beside(plain=False),
    "outlook rich text beside its text": rich_text_beside(plain=True),
    # charsets and transfer encodings
    "iphone in japanese, iso-2022-jp": labelled(iphone_in_japanese, "ISO-2022-JP", "iso2022_jp", "7bit"),
    "outlook in japanese, shift_jis": labelled(text_of("outlook in Japanese"), "shift_jis", "cp932"),
    "outlook, windows-1252 quoted-printable": labelled(
        text_of("outlook plain"), "windows-1252", "cp1252", "quoted-printable"
    ),
    "thunderbird in russian, koi8-r": labelled(thunderbird_in_russian, "KOI8-R", "koi8_r"),
    "foxmail, gbk labelled gb2312": labelled(foxmail, "gb2312", "gbk"),
    "foxmail, gb18030": labelled(foxmail, "GB18030", "gb18030"),
    "outlook, utf-8 after a byte order mark": labelled(with_bom(text_of("outlook plain")), "utf-8", "utf-8"),
    "gmail, a soft break in a command": soft_broken,
    "a label misspelt utf8": labelled(text_of("iphone"), "utf8", "utf-8"),
    "a label misspelt cp-1252": labelled(text_of("iphone"), "cp-1252", "cp1252", "quoted-printable"),
    "an unknown label over utf-8": labelled(text_of("iphone"), "x-unknown", "utf-8"),
    "a label browsers know, x-sjis": labelled(iphone_in_japanese, "x-sjis", "cp932"),
    "iphone": as_style("iphone"),
    "apple mail flowed": as_style("apple mail flowed"),
}


def written_by(client: str, body: str, notice: Notice) -> bytes:
    """Ada's reply to `notice` as `client` sends it: the headers Gmail's would have, the content the client's."""
    mail = email.message_from_bytes(reply("gmail", body, notice), policy=email.policy.default)
    assert isinstance(mail, EmailMessage)
    mail.clear_content()
    content = CLIENTS[client](body, notice)
    for name, value in content.items():
        if name.lower() != "mime-version":  # the reply's own stays
            mail[name] = value
    mail.set_payload(content.get_payload())
    return mail.as_bytes()


# -- what should happen -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Moved(Expected):
    """Ada's multipliers stored as written; the answer says so, listing `unread` (Outlook's plain
    signature) and nothing else as not read: no footer, attribution or armor line."""

    multipliers: tuple[int, ...]
    unread: tuple[str, ...] = ()

    def before(self, fakes: Fakes) -> None:
        pass

    def holds(self, fakes: Fakes, answer: str) -> None:
        assert fakes.store.submissions(MID, 1) == {"ada": {"multipliers": {"multipliers": list(self.multipliers)}}}
        assert "Accepted for Pregame:" in answer
        listed = answer.partition("Not read (taken for a greeting or a sign-off):\n")[2]
        assert listed.split("\n") == (["  " + line for line in self.unread] if self.unread else [""])


@dataclass(frozen=True)
class MarkedMessage(Message):
    """A message whose line starts ">": stored and sent to Bo as written (`Message`: Bo's notice
    and Ada's answer read back through `parse_message`, which follows format=flowed). Our mail is
    format=flowed with that line space-stuffed (RFC 3676 4.4), so no client shows it as a quote:
    one that knows flowed shows it as written, one that does not one column right."""

    def holds(self, fakes: Fakes, answer: str) -> None:
        super().holds(fakes, answer)
        [notice] = [mail.raw for mail in fakes.mailer.sent if mail.to == PLAYERS["bo"][1]][-1:]
        body = email.message_from_bytes(notice, policy=email.policy.default).get_body()
        assert body is not None and body.get_param("format") == "flowed"
        assert f"A message from Ada Lovelace to you:\n\n {self.text}\n" in body.get_content().replace("\r\n", "\n")


@dataclass(frozen=True)
class Unread(Refused):
    """Refused as `Refused` is, and Ada's multipliers sent before still the ones that stand."""

    def holds(self, fakes: Fakes, answer: str) -> None:
        super().holds(fakes, answer)
        assert fakes.store.submissions(MID, 1) == {"ada": {"multipliers": MULTIPLIERS}}
        # No line was read, so none is said to be misunderstood: the heading says it could not be read
        assert "Nothing was submitted: your mail could not be read.\n" in answer
        assert "not understood" not in answer


ENCRYPTED_REFUSAL = Unread(ENCRYPTED.text)
"""Outlook's, Apple Mail's and Thunderbird's encryption alike: the answer names it and the way out."""
SHORT_FORM = "-1 2 1 -1 0 1"
"""The multipliers without their keyword, starting "-": dash-escaped when signed inline."""
MOVE = f"MULTIPLIERS {SHORT_FORM}"
MOVED = Moved((-1, 2, 1, -1, 0, 1))
UNDER_OUTLOOKS_SIGNATURE = Moved((-1, 2, 1, -1, 0, 1), tuple(OUTLOOK_SIGNATURE.split("\n")))
"""Outlook's plain part cannot mark its signature: left unread, and listed."""
JAPANESE_DEAL = "取引しますか？\n箱3を左に押します。"
"""A message Ada writes in Japanese, its full-width question mark kept as written."""

CASES: list[tuple[str, str, str, Expected]] = [
    # (id, client, what Ada writes, what should happen)
    # Signed: read exactly as if unsigned
    (
        "press s/mime signed by outlook: its html cuts the signature",
        "outlook s/mime signed, its html marking its signature",
        f"PRESS TO bo\n{DEAL}",
        Message(("bo",), DEAL),
    ),
    ("ready s/mime signed by an iphone", "apple mail s/mime signed, flowed", "Ready", Vote(True)),
    ("a move s/mime signed by thunderbird", "thunderbird s/mime signed", MOVE, MOVED),
    (
        "press pgp/mime signed by thunderbird, its key attached",
        "thunderbird pgp/mime signed",
        f"PRESS TO bo\n{DEAL}",
        Message(("bo",), DEAL),
    ),
    # Proton's footer ("Sent with Proton Mail secure email.") ends the writing, as "Sent from my iPhone" does
    (
        "press pgp/mime signed by proton",
        "proton pgp/mime signed",
        f"PRESS TO bo\n{DEAL}",
        Message(("bo",), DEAL),
    ),
    ("a move pgp/mime signed by proton", "proton pgp/mime signed", MOVE, MOVED),
    # The short form's "-1" is sent dash-escaped ("- -1 2 ..."): read as Ada wrote it
    (
        "a short form signed inline, dash-escaped",
        "thunderbird inline pgp signed",
        SHORT_FORM,
        MOVED,
    ),
    (
        "press signed inline above the quote",
        "gmail inline pgp signed (mailvelope)",
        f"PRESS TO bo\n{DEAL}\n-- crate 5 next",
        Message(("bo",), f"{DEAL}\n-- crate 5 next"),
    ),
    # Not to be read: refused naming why, nothing changed
    ("a move s/mime encrypted by outlook", "outlook s/mime encrypted", MOVE, ENCRYPTED_REFUSAL),
    ("a move pgp/mime encrypted by thunderbird", "thunderbird pgp/mime encrypted", MOVE, ENCRYPTED_REFUSAL),
    ("a move encrypted inline", "gmail inline pgp encrypted (mailvelope)", MOVE, ENCRYPTED_REFUSAL),
    ("a move in s/mime's opaque signing", "outlook s/mime opaque signed", MOVE, Unread(OPAQUE_SIGNED.text)),
    ("a move in outlook's rich text alone", "outlook rich text alone", MOVE, Unread(RICH_TEXT.text)),
    ("rich text beside an empty text", "outlook rich text beside an empty text", MOVE, Unread(RICH_TEXT.text)),
    # Outlook's plain rendering beside winmail.dat is the text: read
    ("rich text beside its text", "outlook rich text beside its text", MOVE, UNDER_OUTLOOKS_SIGNATURE),
    # Charsets and transfer encodings; a Japanese or Chinese input method's full-width letters,
    # digits, minus signs and spaces read as the grammar's (NFKC), the message kept as written
    # ISO-2022-JP's minus (JIS 0x215D) is read as U+2212, the minus sign: a minus too
    (
        "full-width multipliers from a japanese iphone",
        "iphone in japanese, iso-2022-jp",
        "ＭＵＬＴＩＰＬＩＥＲＳ　−１　２　１　−１　０　１",
        MOVED,
    ),
    (
        "press in japanese from an iphone, its footer left out",
        "iphone in japanese, iso-2022-jp",
        f"PRESS TO bo\n{JAPANESE_DEAL}",
        Message(("bo",), JAPANESE_DEAL),
    ),
    ("full-width ready", "iphone in japanese, iso-2022-jp", "ＲＥＡＤＹ", Vote(True)),
    # Japanese Windows writes its code page under the Shift_JIS label: ① (an NEC extension) too
    (
        "press from japanese outlook with a circled digit",
        "outlook in japanese, shift_jis",
        "ＰＲＥＳＳ　ＴＯ　ｂｏ\n①箱3を左に押します。",
        Message(("bo",), "①箱3を左に押します。"),
    ),
    (
        "a non-breaking space in windows-1252",
        "outlook, windows-1252 quoted-printable",
        "MULTIPLIERS\xa0-1\xa02 1 -1 0 1",
        UNDER_OUTLOOKS_SIGNATURE,
    ),
    (
        "smart quotes in windows-1252",
        "outlook, windows-1252 quoted-printable",
        "PRESS TO bo\n“Deal?” – crate 3… I’ll push it",
        # Outlook's plain part cannot mark its signature: it goes with the message
        Message(("bo",), "“Deal?” – crate 3… I’ll push it\n\nAlex O'Brien – Team Captain\n+44 20 7946 0958"),
    ),
    (
        "press in russian below the quote, koi8-r",
        "thunderbird in russian, koi8-r",
        "PRESS TO bo\nСделка? Толкаю ящик 3 влево.",
        Message(("bo",), "Сделка? Толкаю ящик 3 влево."),
    ),
    ("a move below a russian attribution", "thunderbird in russian, koi8-r", MOVE, MOVED),
    # 镕 is GBK's, not GB2312's: Foxmail labels its GBK "gb2312"
    (
        "press from foxmail, gbk under gb2312",
        "foxmail, gbk labelled gb2312",
        "PRESS TO bo\n成交？我推3号箱。——镕",
        Message(("bo",), "成交？我推3号箱。——镕"),
    ),
    (
        "full-width move from foxmail, gb18030",
        "foxmail, gb18030",
        "ＭＵＬＴＩＰＬＩＥＲＳ　－１　２　１　－１　０　１",
        MOVED,
    ),
    ("a move after a byte order mark", "outlook, utf-8 after a byte order mark", MOVE, UNDER_OUTLOOKS_SIGNATURE),
    ("a command split by a soft break", "gmail, a soft break in a command", MOVE, MOVED),
    ("a label utf8", "a label misspelt utf8", "PRESS TO bo\nÇa marche ?", Message(("bo",), "Ça marche ?")),
    ("a label cp-1252", "a label misspelt cp-1252", "PRESS TO bo\n“Deal?”", Message(("bo",), "“Deal?”")),
    ("an unknown label", "an unknown label over utf-8", "PRESS TO bo\nÇa marche ?", Message(("bo",), "Ça marche ?")),
    (
        "a label x-sjis",
        "a label browsers know, x-sjis",
        f"PRESS TO bo\n{JAPANESE_DEAL}",
        Message(("bo",), JAPANESE_DEAL),
    ),
    # format=flowed (RFC 3676): a line of Ada's own starting ">" is sent stuffed (" >"): hers
    (
        "press flowed, a line of one's own starting >",
        "apple mail flowed",
        "Press to Bo\n> 2 crates move in round two.",
        MarkedMessage(("bo",), "> 2 crates move in round two."),
    ),
]


@pytest.mark.parametrize(
    ("client", "written", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_each_mail_as_each_client_sends_it(client: str, written: str, expected: Expected) -> None:
    answers_the_notice(lambda notice: written_by(client, written, notice), expected)


@pytest.mark.parametrize("client", ["thunderbird pgp/mime encrypted", "outlook rich text alone"])
def test_the_hosts_unreadable_mail_is_answered_saying_why(client: str) -> None:
    # Not "not one of the host's commands": the host is told why nothing was read, and how to write them
    table = round_one()
    before = table.match()
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = HOST, f"{MID}@play.test", f"[{MID}] Round 1"
    mail["Message-ID"] = "<host-1@example.com>"
    content = CLIENTS[client]("EXTEND 2", Notice(parse_message(b""), ""))
    for name, value in content.items():
        mail[name] = value
    mail.set_payload(content.get_payload())

    receive(table.ports, receipt(mail.as_bytes()))

    assert table.match() == before  # the deadline not extended
    why = ENCRYPTED if client == "thunderbird pgp/mime encrypted" else RICH_TEXT
    answer = the_answer(table)
    assert " ".join(answer.split()).startswith(
        f"Hello, Nothing was submitted: your mail could not be read. - {why.text}"
    )
    assert "\n\nThe host's commands (a line each, in a mail from the host's address):\n" in answer
