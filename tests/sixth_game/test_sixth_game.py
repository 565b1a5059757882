"""A sixth game is its package plus one line (docs/GAME_AUTHORING.md).

Given Highest Unique Bid (`highbid/` here, its bot `highbid_bot.py` beside it), which no file of
the project names,
When it is registered as if its id had been added to `registry.AVAILABLE` (`sitecustomize.py`
here does it in every process of a pytest run started with this folder on PYTHONPATH)
Then the project's own matrices, which read the registry and each game's `demo`, hold it and pass:
conformance (its bot plays it through views alone, its state survives JSON, the same seed gives
the same bytes in separate processes, its private seat never shows), the plain-text grammar (every
submission its bot sends and every one its model's schema allows round-trips, help examples read
back, rendered views keep secrets and show names, 10,000 generated bodies read without a line
dropped), its rules for players (plain text, every line of its grammar), the match layer's checks,
its final mail's result text (a score of several words, "1 won, 0 chips", read by its column), the
purity of its functions, its pages (a form for every kind, no other seat's secret), every line a
participant reads, its package's layout and names, its settings' schema,
whole bot matches on the real ASL, which the local stack writes for it as `match-asl` would, by
webhook (the record replayed by the CLI in a process of its own) and by e-mail, and fault
injection (a fault at every step, the record equal to a clean run's: four rounds are the fewest
whose resolutions meet every strike point it asks for).
And registered in this process, `match-asl --check` names the files it must write, and the command.
Every per-game parametrization of the suite is in that run (`per_game_modules` finds them), but two
that read what only a game added to the project has (its committed ASL).
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from game_core.cli import asl
from game_core.errors import UnknownGame
from game_core.games import registry

pytestmark = pytest.mark.statemachine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MATRICES = {
    "tests/unit/games/test_conformance.py": {
        "test_a_bot_match_reaches_a_result_with_every_player_standing",
        "test_another_participants_private_seat_never_shows_in_a_view",
        "test_a_seeded_match_gives_the_same_bytes_whatever_the_hash_seed",
        "test_the_public_part_of_every_view_is_the_public_view",
        "test_every_game_has_a_bot",
        "test_every_game_says_how_many_play_it",
    },
    "tests/unit/games/test_text_conformance.py": {
        "test_every_submission_the_bots_send_round_trips",
        "test_every_valid_submission_and_action_round_trips",
        "test_the_help_example_reads_back",
        "test_a_rendered_view_shows_nothing_of_another_players_private_seat",
        "test_a_rendered_view_names_every_player_by_display_name",
        "test_generated_bodies_never_raise_and_every_line_is_read_or_named",
    },
    "tests/unit/match/test_engine_games.py": set(),
    "tests/unit/games/test_rules_docs.py": {
        "test_the_rules_read_as_plain_text",
        "test_the_rules_name_every_rule_set_and_show_every_line_of_the_grammar",
    },
    "tests/statemachine/test_full_matches.py": {
        "test_a_bot_match_runs_to_the_end_and_every_message_is_the_recipients_view"
    },
    "tests/statemachine/test_email_matches.py": {
        "test_a_match_played_by_email_reaches_every_mailbox_with_its_own_view_only"
    },
    "tests/statemachine/test_fault_injection.py": {"test_a_fault_at_every_step_leaves_the_match_as_a_clean_run_would"},
    "tests/unit/games/test_result_text.py": {"test_every_games_result_names_the_winner_and_has_a_row_for_every_place"},
    "tests/unit/games/test_purity.py": {"test_no_function_of_a_game_changes_what_it_was_handed"},
    "tests/unit/service/test_every_line_read.py": {"test_every_line_every_participant_reads_holds_to_the_rules"},
    "tests/unit/page/test_page_secrecy.py": {"test_no_page_shows_anything_of_another_participants_private_seat"},
    "tests/unit/page/test_page_forms.py": {
        "test_every_kind_of_every_game_has_a_form",
        "test_every_move_the_bots_sent_fills_its_form_and_reads_back_the_same",
    },
    "tests/integration/test_cli.py": {"test_every_available_game_is_described"},
    "tests/unit/season/test_season_real_results.py": {"test_the_season_reads_what_each_games_result_says"},
    "tests/test_architecture.py": {
        "test_every_game_package_has_the_layout",
        "test_every_game_package_lists_its_other_modules_in_its_docstring",
        "test_the_package_init_exports_game_and_nothing_of_substance",
        "test_the_classes_are_named_by_the_scheme",
    },
}
"""Each module run for the game, with tests that must be among those that ran for it (a module's
other tests for it may come and go)."""
NOT_FOR_A_REGISTERED_GAME = {
    "tests/statemachine/test_handover.py": "each game's committed ASL as deployed (statemachines/)",
    "tests/test_static_checks.py": "each game's committed ASL and template entries",
    "tests/test_docs_site.py": "each game's committed pages in the manual (players/<game>.md, hosts/settings.md)",
}
"""Per-game matrices that read what only a game added to the project has: a registered game is
told what it lacks instead (`test_match_asl_check_names_the_files_...` below)."""
PER_GAME = ("registry.AVAILABLE", "bot_matches")
"""What a per-game parametrization is made of: the registry's games, or the bots' matches
(`local_stack.bots.play.bot_matches`, and whatever a test imports from tests/unit/games/bot_matches.py)."""


def per_game_modules() -> set[str]:
    """Every test module with a parametrization over the games: its `parametrize` names the
    registry's games or the bots' matches, directly or through a module-level name made of them."""
    found = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        made_of = set(PER_GAME)

        def names_a_game(said: str, made_of: set[str] = made_of) -> bool:
            return any(re.search(rf"(?<![\w.]){re.escape(name)}\b", said) for name in made_of)

        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module == "bot_matches":
                made_of |= {alias.asname or alias.name for alias in node.names}
            if isinstance(node, ast.Assign) and names_a_game(ast.unparse(node.value)):
                made_of |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            decorators = node.decorator_list if isinstance(node, ast.FunctionDef) else []
            if any("parametrize" in ast.unparse(d) and names_a_game(ast.unparse(d)) for d in decorators):
                found.add(str(path.relative_to(ROOT)))
    return found


def test_every_per_game_matrix_runs_for_the_sixth_game() -> None:
    assert per_game_modules() - set(MATRICES) - set(NOT_FOR_A_REGISTERED_GAME) == set()
    assert set(MATRICES) | set(NOT_FOR_A_REGISTERED_GAME) <= per_game_modules() | {
        "tests/unit/match/test_engine_games.py"
    }


def test_the_projects_matrices_take_a_registered_game_and_pass(tmp_path: Path) -> None:
    report = tmp_path / "report.xml"
    path = os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q"]
        + ["-k", "highbid", f"--junitxml={report}", *MATRICES],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    ran: dict[str, set[str]] = {module: set() for module in MATRICES}
    for case in ElementTree.parse(report).iter("testcase"):
        assert not list(case), f"{case.get('name')}: not passed ({list(case)[0].tag})"
        module = case.get("classname", "").replace(".", "/") + ".py"
        ran[module].add(case.get("name", "").split("[")[0])
    for module, expected in MATRICES.items():
        assert ran[module], f"{module} ran nothing for the game"
        assert expected <= ran[module], (module, expected - ran[module])


def test_match_asl_check_names_the_files_a_registered_game_lacks_and_the_command(capsys) -> None:
    with registry.registered("highbid"):
        assert asl.main(["--check", "--root", str(ROOT)]) == 1
    # The committed files are the five games'; the sixth adds a state machine and its template entries.
    assert capsys.readouterr().err.splitlines() == [
        "stale: run bin/match-asl (.venv/bin/match-asl) to write it from the game registry",
        f"  {ROOT / 'statemachines' / 'highbid.asl.json'}",
        f"  {ROOT / 'template.yaml'}",
    ]


def test_a_registered_game_is_available_for_the_duration_only() -> None:
    before = registry.AVAILABLE
    with registry.registered("highbid") as game:
        assert registry.AVAILABLE == (*before, "highbid")
        assert registry.load("highbid") is game
        with pytest.raises(ValueError, match="a game 'highbid' is already available"), registry.registered("highbid"):
            pass
    assert registry.AVAILABLE == before
    with pytest.raises(UnknownGame, match="unknown game 'highbid'"):
        registry.load("highbid")
