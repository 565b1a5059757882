"""The host's STATUS by mail folded at 78 columns, a long list of names under its heading."""

from __future__ import annotations

from game_core.service.mail.grammar import host_status_lines


def test_a_long_list_of_who_sent_folds_under_its_names() -> None:
    players = [f"p{number:02d}" for number in range(1, 7)]
    names = {player: f"Player Number {player[1:]}" for player in players}
    status = {
        "match_id": "m-1",
        "game": "crates",
        "status": "running",
        "phases_resolved": 1,
        "submitted": players,
        "waiting_for": [],
    }
    # "Sent: " is 6 columns and each name 16, with ", " between: four names take 6 + 4 * 16 + 3 * 2
    # + the comma = 77 columns, a fifth would reach 95
    assert host_status_lines(status, names) == [
        "Match m-1 (crates) is running; 1 phase resolved.",
        "Sent: Player Number 01, Player Number 02, Player Number 03, Player Number 04,",
        "      Player Number 05, Player Number 06",
        "Waiting for: nobody",
    ]
