"""What Discord and Slack incoming webhooks are sent (service/webhooks/bodies.py; issues 29, 34):
Slack's three markup characters escaped as its formatting reference asks, Discord's tables and
boards in code blocks within its 2,000 characters, under a name naming the match. Every expected
value is worked by hand from Slack's and Discord's documented formats."""

from __future__ import annotations

import json

import pytest

from game_core.service.webhooks.bodies import aligned, discord_parts
from game_core.service.webhooks.queue import Delivery, Hook
from game_core.service.webhooks.sending import new_secret, posts

DISCORD = Hook("https://discord.com/api/webhooks/1/abc", new_secret())
SLACK = Hook("https://hooks.slack.com/services/T/B/C", new_secret())


def notice(text: str) -> Delivery:
    payload = {"type": "match.notice", "match_id": "m-1f2e", "text": text}
    return Delivery("m-1f2e", "@public", "m-1f2e/resolved-1/@all", payload, queued_at=0)


def slack(text: str) -> str:
    (one,) = posts(SLACK, notice(text), 0)
    return str(json.loads(one.body)["text"])


def discord(text: str) -> list[dict[str, object]]:
    return [json.loads(one.body) for one in posts(DISCORD, notice(text), 0)]


def test_slack_gets_a_players_markup_as_text_not_as_a_ping_or_a_hidden_link() -> None:
    # By hand, per Slack's "Escaping text": & -> &amp;, < -> &lt;, > -> &gt; (and nothing else)
    assert slack("Bo says: <!channel> wake up") == "Bo says: &lt;!channel&gt; wake up"
    assert slack("see <https://evil.example/x|your results>") == "see &lt;https://evil.example/x|your results&gt;"
    assert slack("A & B > C") == "A &amp; B &gt; C"
    assert slack("&lt; stays as typed") == "&amp;lt; stays as typed"  # the escape itself escaped first


TABLE = [
    "Player  Spent 1  Chips left",
    "------  -------  ----------",
    "Ann         100           0",
    "Bob          38          45",
]
BOARD = [
    "   A B C D E F",
    " 1 . a c c c d",
    " 2 a a a c c d",
]


def test_discord_gets_tables_and_boards_in_code_blocks_under_the_matchs_name() -> None:
    text = "\n".join(
        ["Domino Auction: Placing 3.", "Players: Ann, Bob", "", *TABLE, "", "Ann", *BOARD, "", "Your move."]
    )

    (body,) = discord(text)

    # By hand: the prose as it was; each aligned run (the table's four lines, the board's three)
    # between ``` lines; the name is "Match " and the match id; mentions still off
    assert body["content"] == "\n".join(
        [
            "Domino Auction: Placing 3.",
            "Players: Ann, Bob",
            "",
            "```",
            *TABLE,
            "```",
            "",
            "Ann",
            "```",
            *BOARD,
            "```",
            "",
            "Your move.",
        ]
    )
    assert body["username"] == "Match m-1f2e"
    assert body["allowed_mentions"] == {"parse": []}


@pytest.mark.parametrize(
    ("line", "is_aligned"),
    [
        ("Player  Spent 1  Spent 2", True),  # columns two spaces apart
        ("-----  --", True),  # a table's rule
        ("10 . . . . . . . . . . . .", True),  # a board's row
        ("   A B C D E F G H I J K L", True),  # its column letters
        ("Players: Ann, Bob, Cy", False),
        ("Auction 1 tiles: 1:F5 2:Z5 3:Y5 4:T4", False),
        ("    11:I5 12:Y5 13:F5", False),  # a wrapped line's indent is not a column
        ("", False),
    ],
)
def test_a_line_is_aligned_when_it_has_columns_a_rule_or_a_boards_cells(line, is_aligned) -> None:
    assert aligned(line) == is_aligned


def test_a_table_too_long_for_one_message_is_closed_and_opened_again_never_cut_inside_a_block() -> None:
    # 60 rows of 29 characters under "Standings:", the limit 200: a block is "```", rows joined
    # by line ends, "```": 4 + (30n - 1) + 4 <= 200 -> 6 rows (187 characters)
    rows = [f"Row {number:02d}  " + "." * 14 + "  value" for number in range(60)]
    assert {len(row) for row in rows} == {29}

    parts = discord_parts("\n".join(["Standings:", *rows]), limit=200)

    # By hand: the first message holds "Standings:" and the first block (10 + 1 + 187 = 198); a
    # second block would pass 200, so each further message is one block: 60 / 6 = 10 blocks
    assert parts[0] == "\n".join(["Standings:", "```", *rows[:6], "```"])
    assert parts[1:] == ["\n".join(["```", *rows[start : start + 6], "```"]) for start in range(6, 60, 6)]
    assert all(len(part) <= 200 for part in parts)
    shown = [line for part in parts for line in part.split("\n") if line.startswith("Row")]
    assert shown == rows  # every row once, in order


def test_a_board_that_opens_a_message_takes_its_heading_along() -> None:
    # By hand: "Intro", "" and "Cy" (9 characters) and the board's block (4 + 3 x 14 + 2 + 4 =
    # 52) make 62, past the limit of 60: the block opens the second message, and "Cy", the line
    # naming whose board it is, goes with it (2 + 1 + 52 = 55)
    parts = discord_parts("\n".join(["Intro", "", "Cy", *BOARD]), limit=60)

    assert parts == ["Intro", "\n".join(["Cy", "```", *BOARD, "```"])]


def test_backticks_in_the_text_open_no_code_block() -> None:
    # A host's press with ``` in it: broken by a zero-width space, so the only fences are ours
    (body,) = discord("```\nwho  wins\n```")

    assert body["content"] == "``\u200b`\n```\nwho  wins\n```\n``\u200b`"
