"""Every example in the README and the manual (docs/) works as pasted: each ```json block is plain
JSON (a settings file is one `create` takes), each ```python block runs in a test below, and each
line of each ```sh block either runs here, offline, as written, or is listed below with why it
cannot (a server that runs until Ctrl-C, a running stack it needs, AWS). A line added to a page
without a decision here fails, and so does a decision for a line no page has any longer. Every
fenced block names its language, one of those. (The rules pages, docs/rules/, have no fenced
block: tests/unit/games/test_rules_docs.py plays their worked examples; the case books' blocks are
mail lines, played by tests/casebook/test_casebooks.py.)"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from game_core.games import registry
from game_core.match.engine import seat
from game_core.match.model import MatchRequest

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ("docs/rules/", "docs/casebook/")
"""Pages written from code or tables, each checked by its own tests (above)."""
PAGES = {
    path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    if not path.relative_to(ROOT).as_posix().startswith(GENERATED)
}
TEXT = "\n".join(PAGES.values())
"""Every handwritten page, one after another (README.md first)."""
FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.MULTILINE | re.DOTALL)
LANGUAGES = ("sh", "json", "python", "text")
RECORD = "tests/worked/test_worked_crates.py"


def blocks(language: str) -> list[str]:
    return [text for _indent, lang, text in FENCE.findall(TEXT) if lang == language]


def test_every_fenced_block_names_a_language_this_test_checks() -> None:
    unnamed = {
        page: langs
        for page, text in PAGES.items()
        if (langs := [lang for _, lang, _ in FENCE.findall(text) if lang not in LANGUAGES])
    }
    assert unnamed == {}, f"a fenced block of each page here has no language of {LANGUAGES}"


def commands(block: str) -> list[str]:
    """A shell block's commands: continued lines joined, comments and surplus spaces dropped."""
    joined = re.sub(r"\\\n\s*", "", block)
    lines = [re.split(r"\s+#\s", line.strip(), maxsplit=1)[0] for line in joined.splitlines()]
    return [" ".join(line.split()) for line in lines if line and not line.startswith("#")]


@dataclass(frozen=True)
class Run:
    """Run as written, from the checkout, or (beside_a_record) from a folder holding `bin/` and an
    exported match's record.json (the worked Crates match)."""

    beside_a_record: bool = False
    beside_receipts: bool = False
    """From a folder holding `bin/`, a match's record.json and the receipts.json a player kept
    (`ada_keeps_her_receipts`)."""
    silent: bool = False
    """It prints nothing when all is well (a check)."""


@dataclass(frozen=True)
class Skip:
    why: str


SERVER = Skip("starts a server that runs until Ctrl-C (tests/integration/test_host_server.py starts one)")
NEEDS_HOST_SERVER = Skip("needs bin/host-server running and a match (tests/integration/test_host_server.py)")
NEEDS_LOCAL_STACK = Skip("needs bin/local-stack running (tests/integration/test_cli.py runs match-host in-process)")
AWS = Skip("needs an AWS account, or a deployed stack on it")
SEASON_ON_THE_LAPTOP = Skip("needs bin/host-server running: tests/integration/test_host_season.py runs it as written")
PATTERN = Skip("a pattern, not a command: MATCH_ID, SECONDS, a|b choices (tests/integration/test_cli.py)")
LINES: dict[str, Run | Skip] = {
    "bin/play": Skip("plays a whole 12-player match with bots, minutes (tests/statemachine play every game)"),
    "bin/test": Skip("runs this very suite"),
    "bin/test --fast": Skip("runs this very suite's unit and contract tests"),
    "bin/test tests/integration/test_webhooks_out.py -p no:xdist": Skip("runs a part of this very suite"),
    "bin/test tests/unit --durations=30 -p no:xdist": Skip("runs a part of this very suite"),
    "bin/host-server --host 0.0.0.0 --port 8080 --smtp-port 2525": SERVER,
    "read -rs SMTP_PASSWORD && export SMTP_PASSWORD": Skip("waits for a password typed at the terminal"),
    "bin/host-server --host 0.0.0.0 --mail-account you@gmail.com --smtp-relay smtp.gmail.com --imap imap.gmail.com "
    "--trust-authserv-id mx.google.com --imap-done-folder Genius": Skip(
        "runs until Ctrl-C, on a real mail account (tests/integration/test_host_mailbox.py plays one locally)"
    ),
    "bin/match-host --server http://127.0.0.1:8081 create events/host_create.json": NEEDS_HOST_SERVER,
    "bin/match-host --server http://127.0.0.1:8081 season create season-create.json": SEASON_ON_THE_LAPTOP,
    "bin/match-host --server http://127.0.0.1:8081 season status s-0123456789ab": SEASON_ON_THE_LAPTOP,
    "bin/match-host --server http://127.0.0.1:8081 season status SEASON_ID": PATTERN,
    "bin/match-host --server http://127.0.0.1:8081 season decide SEASON_ID bo": PATTERN,
    "bin/match-host --server http://127.0.0.1:8081 season extend SEASON_ID 43200": PATTERN,
    "bin/match-host --server http://127.0.0.1:8081 season guests SEASON_ID guests.json": Skip(
        "reads a file of guests (docs/SEASONS.md: Guests) for a season waiting on them (its tests: tests/unit/season)"
    ),
    "bin/match-host --server http://127.0.0.1:8081 season pause|resume|cancel|recover SEASON_ID": PATTERN,
    "LAPTOP=192.168.1.20 MATCH=m-0123456789ab SECRET=ada-s-secret": Run(silent=True),
    'curl -H "Authorization: Bearer $SECRET" -H "Content-Type: application/json" -d \'{"phase": "Pregame", '
    '"kind": "multipliers", "submission": {"multipliers": [2, 1, 1, 0, -1, -1]}}\' '
    "http://$LAPTOP:8080/matches/$MATCH/players/ada/submissions": NEEDS_HOST_SERVER,
    'curl -H "Authorization: Bearer $SECRET" http://$LAPTOP:8080/matches/$MATCH/players/ada': NEEDS_HOST_SERVER,
    "bin/match-schemas crates": Run(),
    "bin/match-replay record.json": Run(beside_a_record=True),
    "bin/match-replay --json record.json": Run(beside_a_record=True),
    "bin/match-verify record.json": Run(beside_a_record=True),
    "bin/match-verify record.json --receipt receipts.json": Run(beside_receipts=True),
    "bin/match-asl": Skip("rewrites the committed state machines; the --check line runs"),
    "bin/match-asl --check": Run(silent=True),
    "bin/bench": Skip("the benchmarks take minutes and a quiet machine"),
    "bin/local-stack": SERVER,
    "bin/mail-in message.eml": NEEDS_LOCAL_STACK,
    "bin/match-host --local create events/host_create.json": NEEDS_LOCAL_STACK,
    "bin/match-host --local status|pause|resume|resolve-now|cancel|export MATCH_ID": PATTERN,
    "bin/match-host --local extend MATCH_ID SECONDS": PATTERN,
    "bin/match-host --local decide MATCH_ID bo ada": PATTERN,
    'bin/match-host --local press MATCH_ID "text" [--to bo]': PATTERN,
    "bin/match-host --local press-mode MATCH_ID on|public|off [--per-hour 10]": PATTERN,
    "bin/match-host --local reissue-secret MATCH_ID bo": PATTERN,
    "bin/match-host --local graces MATCH_ID 2 --seconds 43200 [--to bo]": PATTERN,
    "bin/match-host --local absence MATCH_ID bo refuse|cut [--to 2026-12-25]": PATTERN,
    "bin/match-host --local replace MATCH_ID bo --name Dana [--email dana@example.com] [--extend 3600]": PATTERN,
    "bin/match-host --local webhook MATCH_ID @public URL": PATTERN,
    "bin/match-host --local recover MATCH_ID": PATTERN,
    "bin/match-host --local pictures MATCH_ID [--phase 2] --out boards": PATTERN,
    "bin/match-host --function <HostCommandsFunction name> status MATCH_ID": AWS,
    "bin/match-host --function <HostCommandsFunction name> create events/host_create.json": AWS,
    "sam build": Skip(
        "builds every function and the layer (minutes; no AWS needed): tests/test_template_security.py runs"
        " `sam validate --lint` on the same template"
    ),
    "sam deploy --guided": AWS,
    "sam build && sam deploy": AWS,
    "aws ses set-active-receipt-rule-set --rule-set-name <stack>-inbound-mail": AWS,
    "git pull": Skip("fetches the project's next version from wherever the checkout came from"),
    "bin/bench costs": Skip("plays a whole match of every game and rule set on the local stack: minutes"),
    "bin/match-host --function <HostCommandsFunction name> redrive-mail MATCH_ID": Skip(
        "needs a deployed stack on AWS (tests/integration/test_inbound_queue.py redrives on the local stack)"
    ),
}
SHELL_LINES = [line for block in blocks("sh") for line in commands(block)]


def test_every_shell_line_has_a_decision_and_every_decision_a_line() -> None:
    assert [line for line in SHELL_LINES if line not in LINES] == [], "decide: run it here, or say why not"
    assert [line for line in LINES if line not in SHELL_LINES] == [], "no page has these lines any longer"


@pytest.mark.parametrize("line", [line for line, decision in LINES.items() if isinstance(decision, Run)])
def test_a_runnable_shell_line_runs_as_written(line: str, tmp_path: Path) -> None:
    decision = LINES[line]
    assert isinstance(decision, Run)
    cwd = ROOT
    if decision.beside_a_record:
        (tmp_path / "bin").symlink_to(ROOT / "bin")
        export = "import json, sys; sys.path.insert(0, 'tests/worked'); from test_worked_crates import RECORD; "
        export += f"json.dump(RECORD, open({str(tmp_path / 'record.json')!r}, 'w'))"
        subprocess.run([ROOT / ".venv/bin/python", "-c", export], cwd=ROOT, check=True)
        cwd = tmp_path
    if decision.beside_receipts:
        (tmp_path / "bin").symlink_to(ROOT / "bin")
        ada_keeps_her_receipts(tmp_path)
        cwd = tmp_path

    ran = subprocess.run(["bash", "-c", line], cwd=cwd, capture_output=True, text=True, timeout=300)

    assert ran.returncode == 0, ran.stderr
    assert bool(ran.stdout.strip()) is not decision.silent, ran.stdout


def test_every_json_block_is_plain_json() -> None:
    for block in blocks("json"):
        json.loads(block)


def test_the_settings_file_example_creates_a_match() -> None:
    # the block under "A match's settings file": its model, and the game's own checks of the seats
    [example] = [json.loads(block) for block in blocks("json") if '"players"' in block]
    request = MatchRequest.model_validate(example)
    seat(registry.load(request.game), [player.id for player in request.players], request.settings)


def test_every_inline_json_body_is_json() -> None:
    # a webhook body given with curl -d '...', and a submission quoted in the prose
    bodies = re.findall(r"-d '(\{.*?\})'", TEXT, re.DOTALL) + re.findall(r"`(\{\"phase\".*?\})`", TEXT)
    assert len(bodies) >= 2
    for body in bodies:
        json.loads(body)


def test_every_place_that_lists_the_games_names_every_game_the_registry_has() -> None:
    games = registry.AVAILABLE
    table_row = next(line for line in TEXT.splitlines() if line.startswith("| `game` |"))
    assert [game for game in games if f"`{game}`" not in table_row] == []
    titles = [registry.load(game).title for game in games]
    openings = [" ".join(text[text.index("Games: ") :][:300].split()) for text in PAGES.values() if "Games: " in text]
    assert len(openings) >= 2  # the README's and the manual's home page
    for opening in openings:
        assert [title for title in titles if title not in opening] == []


def readme_code(marker: str) -> dict[str, Any]:
    """The one Python block of the pages holding `marker`, run as written (not as __main__): its names."""
    (block,) = [block for block in blocks("python") if marker in block]
    namespace: dict[str, Any] = {"__name__": "readme"}
    exec(block, namespace)
    return namespace


def test_the_receipt_check_opens_what_the_service_seals_and_nothing_else() -> None:
    from datetime import UTC, datetime

    from game_core.match import receipts

    namespace = readme_code("def opens")
    move = {"pushes": [{"crate": "zoë", "direction": "right"}], "ground": "ice"}  # not ASCII: UTF-8
    salt = "ab" * receipts.SALT_BYTES
    sealed = receipts.seal(salt, datetime(2026, 12, 1, tzinfo=UTC))
    kept = receipts.receipt("m-1", "Round 1", 2, "zoë", "round", move, sealed)
    opened = {"phase": "Round 1", "number": 2, "player": "zoë", "kind": "round", "submission": move, "salt": salt}
    assert namespace["opens"](kept, opened)
    for changed in ({"salt": "cd" * 32}, {"submission": move | {"ground": "stone"}}, {"number": 3}, {"player": "bo"}):
        assert not namespace["opens"](kept, opened | changed), changed


def ada_keeps_her_receipts(folder: Path) -> tuple[list[str], list[dict[str, Any]]]:
    """A two-player Crates match on the fakes, played to its end: Ada sends her multipliers by
    webhook and her Round 1 move by mail; every phase runs to its deadline. Writes its exported
    record (record.json) and what Ada kept (receipts.json: her webhook's reply as it came, then
    the receipt line of her mail's echo); returns those two answers, and what her own notices
    opened at the reveals."""
    sys.path.insert(0, str(ROOT / "tests/unit/service"))
    from crates_driver import Table
    from test_service_mail_in import ADA, BO, answers, message, receipt

    from game_core.games.text_layout import prose
    from game_core.service.mail.receive import receive
    from game_core.service.matches.lifecycle import export_record
    from game_core.service.matches.receipts import KEEP
    from game_core.service.matches.submit import SubmissionRequest, submit_by_webhook

    table = Table.open(emails={"ada": ADA, "bo": BO})
    mid, secret = table.match_id, table.created["secrets"]["ada"]
    sent = SubmissionRequest(mid, "ada", "Pregame", "multipliers", {"multipliers": [2, 1, 1, 0, -1, -1]}, "webhook")
    reply = json.dumps(submit_by_webhook(table.ports, mid, "ada", secret, "delivery-1", lambda: sent))
    table.resolve_at_deadline()
    table.fakes.mailer.sent.clear()
    receive(table.ports, receipt(message(ADA, "PUSH ada RIGHT")))
    [(_, echo)] = answers(table)
    lines = echo.text.splitlines()
    mail_line = lines[lines.index(prose(KEEP)[-1]) + 1]  # the JSON line under the folded heading
    while table.match().phase is not None:
        table.resolve_at_deadline()
    own = [notice.body for notice in table.fakes.notifier.notices(mid) if notice.recipient == "ada"]
    (folder / "record.json").write_text(export_record(table.ports, mid).model_dump_json())
    (folder / "receipts.json").write_text(f"{reply}\n{mail_line}\n")
    return [reply, mail_line], [opening for body in own for opening in body.get("opened", [])]


def test_the_receipt_check_reads_a_receipt_as_the_webhook_and_the_mail_gave_it(tmp_path: Path) -> None:
    namespace = readme_code("def opens")
    kept, opens = namespace["kept"], namespace["opens"]
    (by_webhook, by_mail), opened = ada_keeps_her_receipts(tmp_path)
    assert by_webhook.startswith('{"accepted": true') and by_mail.startswith("  {")  # as each came

    # Ada's own notices opened her multipliers at the Pregame's reveal, her Round 1 move at its own
    assert [(o["phase"], o["kind"]) for o in opened] == [("Pregame", "multipliers"), ("Round 1", "round")]
    multipliers, round_1 = opened
    assert opens(kept(by_webhook), multipliers) and opens(kept(by_mail), round_1)
    assert not opens(kept(by_webhook), round_1) and not opens(kept(by_mail), multipliers)


HASH = re.compile(r"\b[0-9a-f]{64}\b")


def test_the_receipts_worked_example_is_what_match_verify_says(tmp_path: Path) -> None:
    # the receipts page's session, run as shown beside the match ada_keeps_her_receipts plays; each hash is …
    # (17 events: created with the Pregame open, Ada's two moves, 7 phases resolved, 6 opened, finished)
    [session] = [block for block in blocks("text") if "--receipt receipts.json" in block]
    steps = re.findall(r"^\$ (.+)\n((?:(?!\$ ).*\n)+)", session, re.MULTILINE)
    assert [command for command, _ in steps] == [
        "bin/match-verify record.json --receipt receipts.json",
        "bin/match-verify record.json --receipt changed.json",
    ]
    (tmp_path / "bin").symlink_to(ROOT / "bin")
    ada_keeps_her_receipts(tmp_path)
    kept = (tmp_path / "receipts.json").read_text().splitlines()
    second = json.loads(kept[1])["commitment"]
    changed = second[:-1] + ("0" if second[-1] != "0" else "1")  # one digit of the second commitment
    (tmp_path / "changed.json").write_text("\n".join([kept[0], kept[1].replace(second, changed)]))

    for command, shown in steps:
        ran = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, timeout=300)
        said = HASH.sub("…", ran.stdout + ran.stderr)
        assert " ".join(said.split()) == " ".join(shown.split())
        assert ran.returncode == (1 if "FAILS" in shown else 0), said


def test_the_python_receiver_verifies_what_the_service_signs(capsys) -> None:
    import http.client
    import threading
    import time
    from http.server import HTTPServer

    from game_core.service.webhooks.queue import Delivery, Hook
    from game_core.service.webhooks.sending import new_secret, posts

    namespace = readme_code("class Receiver")
    namespace["SECRET"] = secret = new_secret()
    server = HTTPServer(("127.0.0.1", 0), namespace["Receiver"])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    delivery = Delivery("m-1", "ana", "m-1/resolved-1/ana", {"text": "Round 1 resolved.", "you": "ana"}, 0)
    (signed,) = posts(Hook("https://bot.example.com/", secret), delivery, int(time.time()))

    def post(body: bytes) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
        try:
            connection.request("POST", "/", body=body, headers=signed.headers)
            return connection.getresponse().status
        finally:
            connection.close()

    try:
        assert post(signed.body) == 204
        assert "m-1/resolved-1/ana Round 1 resolved." in capsys.readouterr().out
        with pytest.raises(http.client.HTTPException):  # a forged body: the receiver refuses it
            post(signed.body.replace(b"ana", b"bob"))
    finally:
        server.shutdown()
        server.server_close()


MATCH_HOST_TARGET = re.compile(r"^(?:bin/)?(?:match-host )?(?:--local |--server \S+ |--function <[^>]*> )?")


def match_host_examples() -> list[str]:
    """Every match-host command the pages give with a MATCH_ID or a SEASON_ID, in a shell block or
    inline in the prose (`extend MATCH_ID 3600`), without its target and redirection."""
    written = SHELL_LINES + re.findall(r"`([^`\n]*(?:MATCH|SEASON)_ID[^`\n]*)`", TEXT)
    # a page's path (`/seasons/SEASON_ID`) names an id too, but is no command
    with_an_id = [line for line in written if ("MATCH_ID" in line or "SEASON_ID" in line) and not line.startswith("/")]
    return sorted({MATCH_HOST_TARGET.sub("", line).split(" > ")[0] for line in with_an_id})


def variants(example: str) -> list[list[str]]:
    """The argument lists an example stands for: each [optional part] with and without it, each
    a|b|c choice on its own, MATCH_ID, SECONDS and URL filled in."""
    optional = re.search(r" \[([^\]]+)\]", example)
    if optional:
        return [
            *variants(example.replace(optional[0], "", 1)),
            *variants(example.replace(optional[0], " " + optional[1], 1)),
        ]
    filled = example.replace("MATCH_ID", "m-0123456789ab").replace("SEASON_ID", "s-0123456789ab")
    words = shlex.split(filled.replace("SECONDS", "3600"))
    words = [word.replace("URL", "https://example.com/hook") for word in words]
    choice = next((i for i, word in enumerate(words) if "|" in word), None)
    if choice is None:
        return [words]
    return [
        option
        for one in words[choice].split("|")
        for option in variants(shlex.join(words[:choice] + [one] + words[choice + 1 :]))
    ]


def test_every_match_host_example_is_a_command_the_service_takes(monkeypatch, capsys) -> None:
    # as pasted (optional parts with and without, each choice), match-host reads it and the
    # service's command model takes what it sends: no "12h" where seconds are asked, no option
    # the command does not have
    from game_core.cli import host
    from game_core.service.commands import parse_host_command

    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(host, "send", lambda command, function, endpoint: sent.append(command) or {"ok": True})
    # pictures drawn from a real record: tests/unit/games/domino/test_domino_pictures_cli.py
    monkeypatch.setattr(host, "write_pictures", lambda exported, phases, out: [])
    # a file an example names (season guests' guests.json): the shape docs/SEASONS.md gives it
    from game_core.cli import host_season

    monkeypatch.setattr(host_season, "read_json", lambda path, what: {"ada": ["fay"], "bo": [{"id": "gwen"}]})
    examples = match_host_examples()
    assert {"graces", "absence", "replace", "press", "press-mode", "season"} <= {
        example.split()[0] for example in examples
    }
    for example in examples:
        for argv in variants(example):
            sent.clear()
            assert host.main(["--local", *argv]) == 0, (argv, capsys.readouterr().err)
            parse_host_command(sent[0])


def test_the_absence_rules_shown_are_the_defaults_and_a_settings_file_takes_them() -> None:
    from game_core.match.absence import AbsenceRules

    [shown] = re.findall(r"`absence_rules` \| announced absences \(`ABSENT`\): `(\{.*?\})` \(the defaults\)", TEXT)
    assert AbsenceRules.model_validate(json.loads(shown)) == AbsenceRules()
