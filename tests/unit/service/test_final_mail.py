"""The final mail of a match carries its result (`text_layout.result_text`, every game's in
tests/unit/games/test_result_text.py) to everyone with an address."""

from __future__ import annotations

from crates_driver import Table, push

from game_core.mail.inbound import parse_message


def test_the_last_mail_of_a_match_carries_its_result() -> None:
    table = Table.open(garnets={"ada": 1}, emails={"ada": "ada@example.org", "bo": "bo@example.org"})
    for _number in range(1, 7):  # Pregame and Rounds 1-5: nobody sends anything
        table.resolve_at_deadline()
    table.turn("ada", "Round 6", push("ada", 4), "ice")
    table.turn("bo", "Round 6", push("ada", 3), "stone")
    table.fakes.mailer.sent.clear()

    table.resolve_at_deadline()

    # As test_service_phases works it out: ada's crate 7 right on ice (x3) = 21 steps, 8 points,
    # floor(8 / 3) = 2 garnets; bo 0 points, 0 garnets; two players: one ToL (ada), one EC (bo)
    final = {mail.to: parse_message(mail.raw).text for mail in table.fakes.mailer.sent}
    for text in final.values():
        assert (
            "The match is over. The winner is ada, with 8.\n"
            "Tokens of Life (ToL): ada.\n"
            "Elimination Candidates (EC): bo.\n"
            "Garnets earned: ada +2, bo 0.\n"
            "\n"
            "Place  Player  Score  ToL  EC  Garnets\n"
            "-----  ------  -----  ---  --  -------\n"
            "    1  ada         8    1           +2\n"
            "    2  bo          0       EC        0"
        ) in text
    assert sorted(final) == ["ada@example.org", "bo@example.org"]
