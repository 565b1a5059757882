"""A ">" the sender types in an HTML mail is their text ("&gt;" in the HTML), not a quote: HTML
clients quote with structure (a <blockquote>), so the plain-text reader must not judge such a
line quoted again (`replies.written(text, own=...)`)."""

from __future__ import annotations

import pytest
from test_mail_inbound import alternative

from game_core.mail.inbound import parse_message

SIGNATURE = "-----BEGIN PGP SIGNATURE-----<br>iHUEARYIAB0WIQplaceholder<br>-----END PGP SIGNATURE-----"


def html_only(html: str) -> bytes:
    return f"Content-Type: text/html; charset=utf-8\n\n{html}".encode()


GMAIL_QUOTE = (
    '<div class="gmail_quote"><div class="gmail_attr">On Mon, 30 Nov 2026 at 12:00, Match &lt;m@x.org&gt;'
    ' wrote:<br></div><blockquote class="gmail_quote">Round 2 is open.<br>&gt; an example move<br>'
    "PUSH A LEFT</blockquote></div>"
)


@pytest.mark.parametrize(
    ("raw", "written"),
    [
        # typed above Gmail's quote: the typed line is Ada's; the blockquote (with its own "&gt;"
        # line and its example move) is old
        (
            html_only(f'<div dir="ltr">PRESS TO bo<br>&gt; 2 crates move in round two.</div><br>{GMAIL_QUOTE}'),
            "PRESS TO bo\n> 2 crates move in round two.",
        ),
        # the same line alone, and indented (a client's leading spaces are collapsed outside <pre>)
        (html_only("<p>&gt; 2 crates</p>"), "> 2 crates"),
        (html_only("<div>&nbsp; &gt; 2 crates</div>"), "> 2 crates"),
        # inside <pre> every line is kept as typed, the ">" one among them
        (
            html_only("<pre>PRESS TO bo\n&gt; quoted by me\n  &gt; and indented</pre>"),
            "PRESS TO bo\n> quoted by me\n  > and indented",
        ),
        # after blank paragraphs that are collapsed to one blank line: still the right line
        (
            html_only("<p>PRESS TO bo</p><p>&nbsp;</p><p>&nbsp;</p><p>&nbsp;</p><p>&gt; deal?</p>"),
            "PRESS TO bo\n\n> deal?",
        ),
        # below Apple Mail's quote (type="cite"), as Thunderbird's users write
        (
            html_only(
                '<div>On 30 Nov 2026, at 12:00, Match wrote:</div><blockquote type="cite"><div>Round 2</div>'
                "<blockquote><div>&gt; older</div></blockquote></blockquote><div>&gt; my answer</div>"
            ),
            "> my answer",
        ),
        # the HTML read because it marks the signature: its typed line the sender's, the plain
        # part's quote-looking copy of it never judged
        (
            alternative(
                "PRESS TO bo\n> 2 crates\n\nAda Lovelace",
                'PRESS TO bo<br>&gt; 2 crates<br><div class="gmail_signature">Ada Lovelace</div>',
            ),
            "PRESS TO bo\n> 2 crates",
        ),
        # signed inline with PGP: the armor lines left out, the typed line still the sender's
        (
            html_only(
                "<div>-----BEGIN PGP SIGNED MESSAGE-----<br>Hash: SHA256<br><br>PRESS TO bo<br>"
                f"&gt; 2 crates<br>{SIGNATURE}</div>"
            ),
            "PRESS TO bo\n> 2 crates",
        ),
    ],
    ids=[
        "above gmail's quote",
        "alone",
        "indented",
        "in pre",
        "after collapsed blank lines",
        "below apple mail's nested quote",
        "html marking the signature",
        "pgp clear-signed",
    ],
)
def test_a_typed_gt_in_html_is_the_senders_and_a_blockquote_is_a_quote(raw: bytes, written: str) -> None:
    assert parse_message(raw).text == written
