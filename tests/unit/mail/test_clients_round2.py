"""parse_message's rules for round 2's clients, one at a time (the clients themselves, end to end,
are tests/unit/service/test_mail_clients_round2.py): format=flowed as RFC 3676 reads it, text
signed inline with PGP (RFC 4880 7), what cannot be read at all, the charset labels senders
write, and the footers, attributions and separators of Japanese, Chinese, Russian and Proton mail."""

from __future__ import annotations

import pytest

from game_core.mail.inbound import ENCRYPTED, OPAQUE_SIGNED, RICH_TEXT, parse_message


def flowed(body: str, delsp: bool = False) -> bytes:
    params = "; format=flowed" + ("; delsp=yes" if delsp else "")
    return f"Content-Type: text/plain; charset=utf-8{params}\n\n{body}".encode()


@pytest.mark.parametrize(
    ("body", "delsp", "written"),
    [
        # the sender's own line starting ">" is sent stuffed (" >"): theirs, not a quote
        ("PUSH A L\n > 2 crates move\n\n> old", False, "PUSH A L\n> 2 crates move"),
        # a soft break joins lines of one quote depth; a flowed line before another depth is fixed
        ("> Round 2 \n> is open\nPUSH A \nL", False, "PUSH A L"),
        ("> a quoted flowed line \nPUSH A L", False, "PUSH A L"),
        ("PUSH A L \n> old", False, "PUSH A L "),
        # quote marks, then one space of stuffing; a deeper quote is a quote of its own
        (">> older \n>> still\n> old\n>  stuffed\nPUSH A L", False, "PUSH A L"),
        # the signature delimiter is never flowed, nor does a flowed line run into it (4.3)
        ("PUSH A L \n-- \nAda", False, "PUSH A L "),
        ("PUSH A  \nL\n-- \nAda", True, "PUSH A L"),
        # DelSp=yes deletes the space of a soft break, at any depth
        ("> old  \n> er\nPUSH A  \nL", True, "PUSH A L"),
    ],
)
def test_format_flowed_as_rfc_3676_reads_it(body: str, delsp: bool, written: str) -> None:
    assert parse_message(flowed(body, delsp)).text == written


SIGNATURE = "-----BEGIN PGP SIGNATURE-----\n\niHUEARYIAB0WIQplaceholder\n=x0Yz\n-----END PGP SIGNATURE-----\n"


def plain(body: str) -> bytes:
    return f"Content-Type: text/plain; charset=utf-8\n\n{body}".encode()


@pytest.mark.parametrize(
    ("body", "written"),
    [
        (f"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nPUSH A L\n{SIGNATURE}", "PUSH A L"),
        # dash-escaped lines ("- " before a line starting "-"): the short form, the signature's delimiter
        (f"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\n- -1 2 1\n- -- \nAda\n{SIGNATURE}", "-1 2 1"),
        # two Hash headers, lines ending in CRLF and trailing spaces
        (
            f"-----BEGIN PGP SIGNED MESSAGE-----  \r\nHash: SHA1\r\nHash: SHA256\r\n\r\nPUSH A L\r\n{SIGNATURE}",
            "PUSH A L",
        ),
        # written above a signed text that it forwards: both read
        (
            f"PUSH A L\n\n-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nPUSH B R\n{SIGNATURE}",
            "PUSH A L\n\nPUSH B R",
        ),
        # a signed message quoted: a quote, armor and all
        (
            "PUSH A L\n\n> -----BEGIN PGP SIGNED MESSAGE-----\n> Hash: SHA256\n>\n> - -- \n"
            + "\n".join("> " + line for line in SIGNATURE.split("\n")),
            "PUSH A L",
        ),
        # the words alone are no armor
        ("PUSH A L\nBEGIN PGP SIGNED MESSAGE", "PUSH A L\nBEGIN PGP SIGNED MESSAGE"),
    ],
)
def test_text_signed_inline(body: str, written: str) -> None:
    assert parse_message(plain(body)).text == written


MULTIPART = (
    "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\n{text}\n--b\n{part}\n\nAAAA\n--b--\n"
)


@pytest.mark.parametrize(
    ("raw", "unreadable", "text"),
    [
        # (what cannot be read has no text: nothing of it is taken for a move)
        ('Content-Type: application/pkcs7-mime; smime-type=enveloped-data; name="smime.p7m"\n\nMIAG', ENCRYPTED, ""),
        ("Content-Type: application/pkcs7-mime; smime-type=authEnveloped-data\n\nMIAG", ENCRYPTED, ""),
        # an old client's enveloped data, with no smime-type, under the old type's name
        ('Content-Type: application/x-pkcs7-mime; name="smime.p7m"\n\nMIAG', ENCRYPTED, ""),
        ("Content-Type: application/pkcs7-mime; smime-type=signed-data\n\nMIAG", OPAQUE_SIGNED, ""),
        ("Content-Type: application/pkcs7-mime; smime-type=certs-only\n\nMIAG", None, ""),  # no text, not encrypted
        (
            'Content-Type: multipart/encrypted; protocol="application/pgp-encrypted"; boundary=b\n\n--b--\n',
            ENCRYPTED,
            "",
        ),
        (plain("-----BEGIN PGP MESSAGE-----\n\nhQEMA\n-----END PGP MESSAGE-----"), ENCRYPTED, ""),
        # a PGP message quoted, or only named, is no encrypted mail: what is written above it is read
        (plain("PUSH A L\n\n> -----BEGIN PGP MESSAGE-----\n> hQEMA"), None, "PUSH A L"),
        (
            plain("PUSH A L\nthe -----BEGIN PGP MESSAGE----- line"),
            None,
            "PUSH A L\nthe -----BEGIN PGP MESSAGE----- line",
        ),
        ('Content-Type: application/ms-tnef; name="winmail.dat"\n\neJ8+', RICH_TEXT, ""),
        (MULTIPART.format(text=" \n", part="Content-Type: application/vnd.ms-tnef"), RICH_TEXT, ""),
        # winmail.dat beside a text that says something: the text is read
        (MULTIPART.format(text="PUSH A L", part="Content-Type: application/ms-tnef"), None, "PUSH A L"),
        (MULTIPART.format(text="", part="Content-Type: application/pdf"), None, ""),  # nothing written: no move
    ],
)
def test_what_cannot_be_read(raw: str | bytes, unreadable: object, text: str) -> None:
    letter = parse_message(raw.encode() if isinstance(raw, str) else raw)
    assert (letter.unreadable, letter.text, letter.json_body) == (unreadable, text, None)


@pytest.mark.parametrize(
    ("charset", "payload", "text"),
    [
        # labels read as the supersets their senders write (WHATWG)
        ("shift_jis", "①箱".encode("cp932"), "①箱"),  # NEC's circled digit, Japanese Windows'
        ("gb2312", "镕".encode("gbk"), "镕"),  # not GB2312's
        ("GBK", "镕€".encode("gb18030"), "镕€"),
        ("big5", "㗎".encode("big5hkscs"), "㗎"),  # Cantonese, HKSCS's
        ("ks_c_5601-1987", "똠".encode("cp949"), "똠"),  # Korean Windows' hangul beyond KS X 1001
        ("ISO-2022-JP", b"\x1b(I1\x1b(B", "ｱ"),  # half-width katakana
        ("iso-8859-9", b"\x80", "€"),  # labelled Latin-5, written in Windows-1254
        # labels Python does not know, or misspelt
        ("windows-31j", "将棋".encode("cp932"), "将棋"),
        ("x-sjis", "将棋".encode("cp932"), "将棋"),
        ("x-gbk", "将棋".encode("gbk"), "将棋"),
        ("cp-1252", "“Deal?”".encode("cp1252"), "“Deal?”"),
        ("windows_1252", "“Deal?”".encode("cp1252"), "“Deal?”"),
        ("utf8", "Zoë".encode(), "Zoë"),
        ("KOI8-R", "Сделка".encode("koi8_r"), "Сделка"),
        # a byte order mark is no text
        ("utf-8", "\ufeffPUSH A L".encode(), "PUSH A L"),
        ("x-unknown", "\ufeffPUSH A L".encode(), "PUSH A L"),
    ],
)
def test_charset_labels(charset: str, payload: bytes, text: str) -> None:
    raw = f"Content-Type: text/plain; charset={charset}\nContent-Transfer-Encoding: 8bit\n\n".encode() + payload
    assert parse_message(raw).text == text


@pytest.mark.parametrize(
    ("body", "written"),
    [
        ("PUSH A L\n\niPhoneから送信\n\n> old", "PUSH A L"),
        ("PUSH A L\n\n发自我的iPhone\n\n> old", "PUSH A L"),
        ("PUSH A L\n\nОтправлено с iPhone\n\n> old", "PUSH A L"),
        ("PUSH A L\n\nSent with Proton Mail secure email.\n\n> old", "PUSH A L"),
        ("PUSH A L\n\nSent with ProtonMail Secure Email.", "PUSH A L"),
        # Apple Mail in Japanese, Thunderbird in Russian: an attribution over unquoted old text
        ("PUSH A L\n\n2026/12/01 12:00、Genius <g@x.org>のメール:\n\nPUSH B R", "PUSH A L"),
        ("PUSH A L\n\n01.12.2026 12:00, Genius пишет:\n\nPUSH B R", "PUSH A L"),
        # Foxmail's separator, and Outlook's in Chinese
        ("PUSH A L\n\n------------------ 原始邮件 ------------------\nPUSH B R", "PUSH A L"),
        ("PUSH A L\n\n-----原始邮件-----\nPUSH B R", "PUSH A L"),
        # what only looks like them stays the sender's
        ("PUSH A L\nОтправлено с любовью", "PUSH A L\nОтправлено с любовью"),
    ],
)
def test_footers_attributions_and_separators_of_more_clients(body: str, written: str) -> None:
    assert parse_message(plain(body)).text == written
