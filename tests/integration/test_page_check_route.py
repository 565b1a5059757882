"""The page's check route (POST /play/{id}/check, issue 30 item 2) through the real webhook function
on the local stack, as API Gateway hands it a browser's request (`benchmarks.page.page_call`): a
move form as it stands answered in words, each reason tied to its input, in one read and not one
write; from another site refused; the logs hold no move."""

from __future__ import annotations

import json
import logging
import re
from collections import Counter

import pytest
from conftest import Capture

from benchmarks.page import page_call, sign_in
from local_stack.aws.metering import Meter

READ = ("dynamodb", "BatchGetItem")
PAGE, CHECK = "/play/{match_id}", "/play/{match_id}/check"


def move_form(body: str, order: list[str]) -> dict[str, str]:
    """The multipliers form of a page as the page's script posts it, filled in with `order`."""
    form = body.split('id="move-multipliers"')[1].split("</form>")[0]
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))
    return hidden | {f"f.multipliers.{i}": v for i, v in enumerate(order)}


@pytest.mark.log_level("INFO")  # what template.yaml deploys
def test_a_move_form_is_checked_in_words_in_one_read_and_nothing_is_written(stack, crates_match, capfd) -> None:
    capture = Capture()
    logging.getLogger().addHandler(capture)
    try:
        match = crates_match(2)
        path = f"/play/{match.match_id}"
        cookie, _ = sign_in(stack, match.match_id, match.secrets["p1"])
        body = page_call(stack, "GET", PAGE, path, cookie=cookie)["body"]
        stack.settle()
        meter = Meter(stack, this_thread=True)
        # The sixth multiplier is a word: refused beside the sixth input, in words (RULINGS: six numbers).
        wrong = page_call(
            stack, "POST", CHECK, f"{path}/check", cookie=cookie, form=move_form(body, [*"2110", "-1", "x"])
        )
        assert (wrong["statusCode"], wrong["headers"]["Content-Type"]) == (200, "application/json")
        said = json.loads(wrong["body"])
        assert said["legal"] is False and said["form"] == "move-multipliers"
        [reason] = said["reasons"]
        assert reason["at"] == "move-multipliers-multipliers-5"
        assert reason["text"] == "multipliers, number 6: Input should be a valid integer"
        # 2 1 1 0 -1 -1 is a permutation of the rules' -1 -1 0 1 1 2: legal.
        legal = page_call(
            stack, "POST", CHECK, f"{path}/check", cookie=cookie, form=move_form(body, [*"2110", "-1", "-1"])
        )
        assert json.loads(legal["body"])["legal"] is True
        assert meter.reset() == Counter({READ: 2})  # one read each, and not one write
        assert match.status()["open"]["waiting_for"] == ["p1", "p2"]  # nothing was sent
        assert not [e for e in match.export()["events"] if e["type"] == "submission_accepted"]
        foreign = page_call(
            stack,
            "POST",
            CHECK,
            f"{path}/check",
            cookie=cookie,
            form=move_form(body, ["2"] * 6),
            headers={"origin": "https://evil.example"},
        )
        assert foreign["statusCode"] == 401
    finally:
        logging.getLogger().removeHandler(capture)
    out, err = capfd.readouterr()
    logged = "\n".join([out, err, *capture.lines])
    assert "page move checked" in logged  # the capture saw the route's line
    assert "Input should be" not in logged and "f.multipliers" not in logged and '"x"' not in logged
