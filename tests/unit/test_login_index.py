"""The SMTP login index (local_stack/laptop/login_index.py) follows the match headers a write leaves:
each participant's id and address, in lower case, name the matches they play in."""

from __future__ import annotations

import json
from typing import Any

from local_stack.laptop.login_index import LoginIndex


def header(*players: tuple[str, str | None]) -> dict[str, Any]:
    """A match header item as the table holds it (wire format), naming these (id, e-mail) players."""
    listed = [{"id": who, "name": who.title(), "email": address} for who, address in players]
    return {"pk": {"S": "MATCH#m-1"}, "sk": {"S": "META"}, "match": {"S": json.dumps({"players": listed})}}


KEY = ("MATCH#m-1", "META")


def test_the_index_follows_each_header_as_writes_leave_it() -> None:
    index = LoginIndex()
    # A match of Ada (an address in mixed case) and Bo (none)
    index.changed([(KEY, header(("ada", " Ada@Example.com "), ("bo", None)))])
    assert [index.matches(name) for name in ("ADA@example.com", "ada", "Bo", "bo@example.com")] == [
        ["m-1"],
        ["m-1"],
        ["m-1"],
        [],
    ]

    # Bo's seat given to Dana: her address names the match, and the seat's id "bo" still does
    index.changed([(KEY, header(("ada", "ada@example.com"), ("bo", "dana@example.com")))])
    assert (index.matches("dana@example.com"), index.matches("bo")) == (["m-1"], ["m-1"])

    # An item the header key holds without a match (an update that made it), then the header gone
    index.changed([(KEY, {"pk": {"S": "MATCH#m-1"}, "sk": {"S": "META"}, "announced": {"N": "3"}})])
    assert index.matches("ada") == []
    index.changed(
        [
            (
                KEY,
                header(
                    ("ada", "ada@example.com"),
                ),
            ),
            (KEY, None),
        ]
    )
    assert index.matches("ada") == index.matches("ada@example.com") == []


def test_items_other_than_match_headers_change_nothing() -> None:
    index = LoginIndex()
    index.changed([(("MATCH#m-1", "STATE"), {"match": {"S": json.dumps({"players": [{"id": "ada"}]})}})])
    index.changed([(("SEASON#s-1", "META"), {"match": {"S": json.dumps({"players": [{"id": "ada"}]})}})])
    assert index.matches("ada") == []
