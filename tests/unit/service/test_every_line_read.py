"""Every line a participant reads in one whole match of each game, on every channel (mail,
webhook, Discord, Slack, page), holds to the rules of issue 34:

- no id the reader does not know: a participant's id (p01, ...) differs from their name and is
  shown only beside it ("Hedy Lamarr (p01)"), never bare;
- every example reads back in this match's own grammar, naming this match's own players;
- nothing speaks of the reader in the third person ("Hedy Lamarr's absence", "a message from
  Hedy Lamarr to Grace Hopper" to Grace Hopper);
- no line of prose in a mail over 78 columns (boards and tables keep their widths);
- no raw field path (`pushes.0.direction`) and no JSON;
- a message's subject says whether it is private (for one participant) or to everyone.

The sealed receipts and the opened moves are the exception the mail states: data kept for
`match-verify`, byte for byte as hashed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser

import pytest
from whole_match import Read, WholeMatch, play

from game_core.games import registry

GAMES = registry.AVAILABLE
MAIL_WIDTH = 78
ID = re.compile(r"\bp\d\d\b")
FIELD_PATH = re.compile(r"\b[a-z_]+\.\d+(\.[a-z_]+)*\b")
JSON = re.compile(r"[{\[]\s*\"|\"\s*:\s*[\"{\[\d]")
KEPT_FOR_THE_TOOL = re.compile(r"^\s+(\{\"at\":|move \{|salt [0-9a-f]{64}$)")
"""A sealed receipt's line, an opened move's and its salt: JSON kept for match-verify."""


@cache
def whole(game_id: str) -> WholeMatch:
    return play(game_id)


class _Text(HTMLParser):
    """A page's text as a reader sees it: text nodes, one a line, indents kept (a <pre>'s example
    stands under its "Example:"); attributes are no reading."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def handle_data(self, data: str) -> None:
        self.lines += [line.rstrip() for line in data.splitlines() if line.strip()]


def lines_of(read: Read) -> list[str]:
    if read.channel != "page":
        return read.text.splitlines()
    parser = _Text()
    parser.feed(read.text)
    return parser.lines


def prose(line: str) -> bool:
    """A line of running text: not indented, not a table's (columns apart by two spaces)."""
    return not line.startswith(" ") and "  " not in line.strip() and len(line.split()) >= 3


def bare_ids(line: str, names: dict[str, str]) -> list[str]:
    """The ids in a line not shown beside their participant's name."""
    found = []
    for hit in ID.finditer(line):
        name = names.get(hit[0], "")
        beside = f"{name} ({hit[0]})" in line or f"{hit[0]} ({name})" in line
        if not beside:
            found.append(hit[0])
    return found


def examples(lines: list[str]) -> Iterator[list[str]]:
    """Each example's lines (indented, under a line "Example:")."""
    for number, line in enumerate(lines):
        if line.strip() == "Example:":
            block = []
            for below in lines[number + 1 :]:
                if not below.startswith("  "):
                    break
                block.append(below.strip())
            yield block


@cache
def third_person(own: str) -> re.Pattern[str]:
    """`own` spoken of as someone else: what no line to `own` may say."""
    return re.compile(rf"\b{re.escape(own)}(['’]s| has| is| was)\b|\bto ([A-Z][a-z]+ )*{re.escape(own)}\b")


def problems(table: WholeMatch, names: dict[str, str], read: Read) -> Iterator[str]:
    lines = lines_of(read)
    own = names.get(read.reader or "")
    if read.subject:  # a header: read back whole, never folded
        lines = [read.subject, *lines]
    for number, line in enumerate(lines):
        if KEPT_FOR_THE_TOOL.match(line):
            continue
        if bare := bare_ids(line, names):
            yield f"ids {bare} the reader knows by name: {line!r}"
        if FIELD_PATH.search(line) or JSON.search(line):
            yield f"a field path or JSON: {line!r}"
        if own and third_person(own).search(line):
            yield f"{own} spoken of in the third person to {own}: {line!r}"
        if read.channel == "mail" and prose(line) and len(line) > MAIL_WIDTH and (number or not read.subject):
            yield f"prose over {MAIL_WIDTH} columns ({len(line)}): {line!r}"
    if "message from" in read.subject and not re.search(r"private message from|to everyone$", read.subject):
        yield f"a message's subject says neither private nor to everyone: {read.subject!r}"
    game = table.game
    for example in examples(lines):
        reading = game.text.read_text(example, tuple(game.submissions), names)
        if reading.reasons:
            yield f"an example this match cannot read: {example} ({[r.text for r in reading.reasons]})"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_line_every_participant_reads_holds_to_the_rules(game_id: str) -> None:
    table = whole(game_id)
    channels = {read.channel for read in table.read}
    assert channels == {"mail", "webhook", "discord", "slack", "page"}
    readers = {read.reader for read in table.read if read.channel == "mail"}
    assert readers == set(table.names())  # every participant got mail
    names = table.names()  # the match's players, read from the store once, not once a text
    found = sorted({f"{read.channel}: {problem}" for read in table.read for problem in problems(table, names, read)})
    assert found == []
