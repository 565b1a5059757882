"""What a Discord or Slack incoming webhook is sent (issues 20, 29, 34): the chat services' own
bodies, unsigned (their URLs are their own secret), beside the Standard Webhooks body that
`service.webhooks.sending.posts` signs for every other URL.

- Discord shows `content` in a proportional font, so a notice's tables and boards (lines aligned
  in columns: `Player  Spent 1`, `-----  --`, ` 1 . a c c`) go in code blocks, where it uses a
  monospace one. A message holds at most 2,000 characters: a long notice is cut, in order,
  between lines, never inside a code block (a block too long for one message is closed and
  opened again in the next). The webhook posts as the match (`username`), and pings nobody.
- Slack reads `&`, `<` and `>` as its own markup (`<!channel>` pings a channel, `<url|label>`
  hides a link behind a label): its formatting reference asks for them escaped as `&amp;`,
  `&lt;` and `&gt;`, so a player's text shows as written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

Channel = Literal["standard", "discord", "slack"]

DISCORD_LIMIT = 2000
"""Characters of one Discord message at most (its API refuses longer `content`)."""
USERNAME_LIMIT = 80
"""Characters of a Discord webhook's `username` at most."""
FENCE = "```"
ZERO_WIDTH_SPACE = "\u200b"
_COLUMN_GAP = re.compile(r"\S {2,}\S")
"""Two or more spaces between words: columns aligned (`Player  Spent 1`)."""
_RULE = re.compile(r" *-+(?: +-+)* *")
"""The dashes under a table's heading (`------  -------`)."""
_BOARD_ROW = re.compile(r" *\S{1,2}(?: \S){4,} *")
"""A board's row or column letters: one-character cells one space apart (` 1 . a c c c`)."""


@dataclass(frozen=True)
class Post:
    """One HTTP POST of a delivery (a long Discord message is several, in order)."""

    body: bytes
    headers: dict[str, str]


JSON = {"Content-Type": "application/json"}


def channel(url: str) -> Channel:
    """Discord's and Slack's incoming webhooks get their own bodies; every other URL the standard's."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host in {"discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"} and parts.path.startswith(
        "/api/webhooks/"
    ):
        return "discord"
    if host == "hooks.slack.com" and parts.path.startswith("/services/"):
        return "slack"
    return "standard"


def chat_posts(kind: Literal["discord", "slack"], match_id: str, text: str) -> list[Post]:
    """The POSTs of one notice's `text` to a Discord or a Slack incoming webhook."""
    if kind == "slack":
        return [Post(json.dumps({"text": slack_text(text)}).encode(), JSON)]
    name = discord_username(match_id)
    return [
        Post(json.dumps({"content": part, "username": name, "allowed_mentions": {"parse": []}}).encode(), JSON)
        for part in discord_parts(text)
    ]


def slack_text(text: str) -> str:
    """The text with the three characters Slack's markup uses escaped (`&` first: it is the escape)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def discord_username(match_id: str) -> str:
    """The name the webhook posts under: the match. Discord refuses a name holding "@", "#", ":",
    three backticks or "discord"; a match id holds none of them, but the name is kept clear anyway."""
    name = re.sub(r"[@#:`]", "", f"Match {match_id}")
    return re.sub("discord", "d1scord", name, flags=re.IGNORECASE)[:USERNAME_LIMIT]


def aligned(line: str) -> bool:
    """Whether a line is part of a table or a board (shown in a monospace font)."""
    return bool(_COLUMN_GAP.search(line) or _RULE.fullmatch(line) or _BOARD_ROW.fullmatch(line))


def discord_parts(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """The text as Discord messages of at most `limit` characters, in order, each ending on a line
    boundary (a line longer than a message is cut); each run of aligned lines in a code block,
    closed in the message it opens in. Three backticks of the text itself are broken by a
    zero-width space, so no code block opens or closes but these."""
    units: list[str] = []
    run: list[str] = []
    for line in text.replace(FENCE, FENCE[:2] + ZERO_WIDTH_SPACE + FENCE[2]).split("\n"):
        if aligned(line):
            run.append(line)
            continue
        units += _code_blocks(run, limit)
        run = []
        units += _cut(line, limit)
    units += _code_blocks(run, limit)
    return _packed(units, limit)


def _cut(line: str, limit: int) -> list[str]:
    return [line[start : start + limit] for start in range(0, len(line), limit)] or [""]


def _code_blocks(lines: list[str], limit: int) -> list[str]:
    """The lines as code blocks of at most `limit` characters each, fences included."""
    room = limit - 2 * (len(FENCE) + 1)
    blocks: list[list[str]] = []
    for piece in (cut for line in lines for cut in _cut(line, room)):
        if not blocks or len("\n".join([*blocks[-1], piece])) > room:
            blocks.append([])
        blocks[-1].append(piece)
    return [f"{FENCE}\n" + "\n".join(block) + f"\n{FENCE}" for block in blocks]


def _packed(units: list[str], limit: int) -> list[str]:
    """The units (lines, cut lines, code blocks) joined by line ends into messages of at most
    `limit` characters; a message neither begins nor ends with an empty line, and a code block
    that opens a message takes its heading (the line just before it) along."""
    parts: list[list[str]] = []
    for unit in units:
        if parts and len("\n".join([*parts[-1], unit])) <= limit:
            parts[-1].append(unit)
        elif unit.strip():
            parts.append([*_heading(parts[-1] if parts else [], unit, limit), unit])
    return ["\n".join(part).strip("\n") for part in parts if "".join(part).strip()]


def _heading(part: list[str], block: str, limit: int) -> list[str]:
    """The line ending `part` that heads `block` ("Cy" above Cy's board), taken from `part` to go
    with it; nothing when `block` is no code block, or `part` would be left empty."""
    if not block.startswith(FENCE) or len(part) < 2:
        return []
    last = part[-1]
    if not last.strip() or last.startswith(FENCE) or len(last) + 1 + len(block) > limit:
        return []
    return [part.pop()]
