"""The commands around the code: `bin/setup` installs a system package only when asked for the
browser (bin/test asks; bin/play and the rest need only Python), and `bin/bench --help` lists its
sections instead of running them."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks import run

ROOT = Path(__file__).resolve().parents[3]


def setup_calls(tmp_path: Path, *arguments: str) -> list[str]:
    """What `bin/setup` asked of apt-get, on a PATH where chromium is missing and apt-get records."""
    # The venv is made for this pyproject.toml (bin/test ran bin/setup): setup installs no Python package here
    stamp = hashlib.sha1((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:12]
    assert (ROOT / ".venv" / f".installed-{stamp}").exists()
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("sha1sum", "cut", "dirname", "rm", "touch", "mkdir", "flock"):
        (tools / tool).symlink_to(shutil.which(tool) or tool)
    calls = tmp_path / "apt-calls"
    # as root (whoever runs the suite), apt-get recording what it was asked
    for tool, script in (("id", "echo 0"), ("apt-get", f'echo "$*" >> {calls}')):
        (tools / tool).write_text(f"#!/bin/sh\n{script}\n")
        (tools / tool).chmod(0o755)
    done = subprocess.run(
        ["/bin/bash", str(ROOT / "bin/setup"), *arguments],
        env={**os.environ, "PATH": str(tools)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.returncode == 0
    return calls.read_text().splitlines() if calls.exists() else []


def test_setup_installs_no_system_package_unless_asked_for_the_browser(tmp_path: Path) -> None:
    assert setup_calls(tmp_path) == []


def test_setup_for_the_browser_installs_chromium_and_its_driver(tmp_path: Path) -> None:
    calls = setup_calls(tmp_path, "--browser")
    assert calls and calls[-1].endswith("install -y -qq chromium chromium-driver")


def test_bin_test_asks_for_the_browser_and_bin_play_does_not() -> None:
    assert "bin/setup --browser\n" in (ROOT / "bin/test").read_text()
    assert "bin/setup\n" in (ROOT / "bin/play").read_text()


def test_bench_help_lists_every_section_and_runs_none(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        run.main(["--help"])
    assert ended.value.code == 0
    printed = capsys.readouterr().out
    assert all(f"  {name} " in printed for name in ("resolution", "cold-start", "costs", "webhooks", "local", "page"))


def test_bench_names_an_unknown_section_and_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        run.main(["cost"])
    assert ended.value.code == 2
    assert (
        "no section cost: the sections are resolution, cold-start, costs, webhooks, paused, local, page"
        in capsys.readouterr().err
    )
