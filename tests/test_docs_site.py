"""The manual (docs/, mkdocs.yml) builds with `mkdocs build --strict`: every link and anchor found,
every page in the nav. And the pages that list what the code has list all of it: each game its
own page with its rules and its picture, its player counts and every one of its settings; every
field of a match's settings file; every host command `match-host` takes and every console event.
(The pages' code blocks run in tests/test_readme.py.)"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest
import yaml

from game_core.games import registry
from game_core.match.model import MatchRequest, PlayerEntry

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def page(path: str) -> str:
    return (DOCS / path).read_text(encoding="utf-8")


def test_the_manual_builds_strict_every_link_and_anchor_found(tmp_path: Path) -> None:
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1"}  # mkdocs-material's notice about MkDocs 2, not the site's
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr[-4000:]
    assert (tmp_path / "site" / "players" / "crates.html").exists()


def nav_pages() -> list[str]:
    def walk(entries: list) -> list[str]:
        found = []
        for entry in entries:
            value = next(iter(entry.values())) if isinstance(entry, dict) else entry
            found += walk(value) if isinstance(value, list) else [value]
        return found

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    return walk(config["nav"])


def test_every_handwritten_page_is_in_the_nav_once() -> None:
    # mkdocs --strict fails a page left out too; this names it without a build
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md") if not p.is_relative_to(DOCS / "rules"))
    listed = nav_pages()
    assert sorted(listed) == pages


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_game_has_a_players_page_with_its_rules_and_its_picture(game_id: str) -> None:
    text = page(f"players/{game_id}.md")
    title = registry.load(game_id).title
    assert text.startswith(f"# {title}\n")
    assert f'--8<-- "rules/{game_id}.md:2:"' in text  # the rules as HELP RULES mails them, their title left out
    for picture in (f"page-{game_id}.png", f"page-{game_id}-390.png", f"page-{game_id}-1280.png"):
        assert f"](../{picture})" in text and (DOCS / picture).exists()
    assert f"](../casebook/{game_id}.md)" in text
    assert f"players/{game_id}.md" in nav_pages() and f"casebook/{game_id}.md" in nav_pages()


def test_the_players_table_gives_each_games_player_counts() -> None:
    rows = {
        m[1]: (int(m[2]), int(m[3]))
        for m in re.finditer(r"^\| \[([^\]]+)\]\(\w+\.md\) \| (\d+) to (\d+) \|", page("players/index.md"), re.M)
    }
    for game_id in registry.AVAILABLE:
        game = registry.load(game_id)
        assert rows.pop(game.title) == (game.min_players, game.max_players), game_id
    assert rows == {}, "a game the registry does not have"


def settings_section(title: str, game_id: str) -> str:
    text = page("hosts/settings.md")
    start = text.index(f"### {title} (`{game_id}`)\n")
    end = text.find("\n### ", start + 1)
    return text[start : end if end > 0 else None]


@pytest.mark.parametrize("game_id", registry.AVAILABLE)
def test_every_setting_of_every_game_has_its_row(game_id: str) -> None:
    game = registry.load(game_id)
    rows = re.findall(r"^\| `(\w+)` \|", settings_section(game.title, game_id), re.M)
    assert rows == list(game.Settings.model_json_schema()["properties"])


def test_every_field_of_a_settings_file_is_described() -> None:
    text = page("hosts/settings.md")
    rows = re.findall(r"^\| `(\w+)` \|", text[: text.index("## Each game's settings")], re.M)
    assert sorted(rows) == sorted(MatchRequest.model_fields)
    players = next(line for line in text.splitlines() if line.startswith("| `players` |"))
    assert [field for field in PlayerEntry.model_fields if f"`{field}`" not in players] == []


def test_every_host_command_has_its_row_and_every_console_event_is_named() -> None:
    from game_core.cli import host
    from game_core.service.commands import HostCommand

    text = page("hosts/commands.md")
    usage = subprocess.run(
        [sys.executable, "-c", "from game_core.cli.host import main; main(['--help'])"], capture_output=True, text=True
    ).stdout
    subcommands = "".join(re.search(r"\{([a-z,\s-]+)\}", usage)[1].split()).split(",")
    assert "redrive-mail" in subcommands and host.SIMPLE[0] in subcommands
    table = text[text.index("## The commands") :]
    rows = re.findall(r"^\| `([a-z-]+)[` ]", table, re.M) + re.findall(r"^\| `[a-z-]+`, `([a-z-]+)`", table, re.M)
    assert sorted(set(rows)) == sorted(subcommands)
    union = typing.get_args(typing.get_args(HostCommand)[0])
    console = sorted(typing.get_args(model.model_fields["command"].annotation)[0] for model in union)
    events = sorted(p.stem.removeprefix("host_") for p in (ROOT / "events").glob("host_*.json"))
    assert [command for command in console if command not in events and f"`{command}`" not in text] == []
    assert [event for event in events if f"host_{event}.json" not in text] == []


def test_the_readme_fits_on_two_screens_with_the_two_commands_and_a_way_into_the_manual() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150  # issue 33: what the project is, two commands, a picture, links
    assert "\nbin/play " in readme and "\nbin/test " in readme
    assert "](docs/index.md)" in readme and re.search(r"!\[[^\]]+\]\(docs/page-\w+\.png\)", readme)


class TemplateLoader(yaml.SafeLoader):
    """template.yaml read for its names: CloudFormation's short tags (!Ref, !Sub, ...) as None."""


TemplateLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def test_deploying_names_every_parameter_and_output_and_alarms_every_alarm() -> None:
    template = yaml.load((ROOT / "template.yaml").read_text(encoding="utf-8"), Loader=TemplateLoader)
    deploy, alarms = page("operators/deploy.md"), page("operators/alarms.md")
    rows = re.findall(r"^\| `(\w+)`(?:, `(\w+)`)? \|", deploy, re.M)
    named = {name for row in rows for name in row if name}
    assert [p for p in template["Parameters"] if p not in named] == []
    assert [o for o in template["Outputs"] if o not in named] == []
    alarms_there = [name for name, item in template["Resources"].items() if item["Type"] == "AWS::CloudWatch::Alarm"]
    game_alarms = {
        f"{registry.load(game).__class__.__name__.removesuffix('Game')}StateMachineFailedAlarm"
        for game in registry.AVAILABLE
    }
    assert game_alarms <= set(alarms_there)  # one a game: the page names them `<Game>StateMachineFailedAlarm`
    assert "`<Game>StateMachineFailedAlarm`" in alarms
    assert [a for a in alarms_there if a not in game_alarms and f"`{a}`" not in alarms] == []


def test_every_action_of_the_season_command_is_described() -> None:
    from game_core.service.season.commands import Season

    text = page("hosts/commands.md")
    described = text[text.index("## A season") :]
    actions = typing.get_args(Season.model_fields["action"].annotation)
    assert [action for action in actions if f"`{action}`" not in described[:1200]] == []


NAMED_PATH = re.compile(r"`([\w./-]+/[\w.-]*(?:\.(?:py|md|json|yaml|toml|png|txt)|/))`")
ELSEWHERE = ("../shared/", ".venv/", "local-data/", "local-outbox/", "test-output/", "moto/", "build/")
"""Paths a page names that are not the checkout's files: beside it, made by running, or moto's."""


def test_every_file_or_folder_a_page_names_is_there() -> None:
    # a module moved or renamed leaves the manual describing code that is not there
    layer = ROOT / "layers" / "game_core" / "game_core"
    pages = [ROOT / "README.md", *(p for p in DOCS.rglob("*.md") if not p.is_relative_to(DOCS / "casebook"))]
    missing = []
    for path in pages:
        for named in NAMED_PATH.findall(path.read_text(encoding="utf-8")):
            if named.startswith(ELSEWHERE):
                continue
            places = (ROOT, layer, layer.parent, DOCS, path.parent)
            if not any((place / named).exists() for place in places):
                missing.append(f"{path.relative_to(ROOT)}: {named}")
    assert missing == []
