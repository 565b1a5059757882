"""bin/setup started twice at once in one checkout (bin/ scripts started together, each calling it)
builds .venv once: the second waits for the first and finds it done.

The checkout here is a copy of bin/setup beside a pyproject.toml, and the Python it finds is a
stand-in that makes a .venv whose pip logs each install's start and end (half a second apart), so
the test sees every install without the package index."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHON = f"""#!/bin/sh
# python3.11 -m venv DIR: a venv whose pip logs its installs, whose python is the real one
[ "$1 $2" = "-m venv" ] || exec {sys.executable} "$@"
mkdir -p "$3/bin"
ln -sf {sys.executable} "$3/bin/python"
printf '#!/bin/sh\\necho "start $$ $*" >> "%s"\\nsleep 0.5\\necho "end $$" >> "%s"\\n' "$LOG" "$LOG" > "$3/bin/pip"
chmod +x "$3/bin/pip"
"""


def checkout(folder: Path, flock: bool) -> dict[str, str]:
    """A checkout of bin/setup and a pyproject.toml with one template-scan tool; the environment
    that puts the stand-in python3.11 first on the PATH (and, without `flock`, a flock(1) that is
    not there, as on macOS)."""
    (folder / "bin").mkdir()
    (folder / "bin" / "setup").write_bytes((ROOT / "bin" / "setup").read_bytes())
    (folder / "bin" / "setup").chmod(0o755)
    (folder / "pyproject.toml").write_text('[project.optional-dependencies]\ntemplate-scan = ["checkov==1"]\n')
    stand_in = folder / "stand-in"
    stand_in.mkdir()
    (stand_in / "python3.11").write_text(PYTHON)
    (stand_in / "python3.11").chmod(stat.S_IRWXU)
    if not flock:
        (stand_in / "flock").write_text("#!/bin/sh\nexit 127\n")
        (stand_in / "flock").chmod(stat.S_IRWXU)
    return {**os.environ, "PATH": f"{stand_in}:{os.environ['PATH']}", "LOG": str(folder / "installs.log")}


@pytest.mark.parametrize("flock", [True, False], ids=["flock", "no-flock"])
def test_two_setups_at_once_install_once_and_leave_one_venv(tmp_path: Path, flock: bool) -> None:
    env = checkout(tmp_path, flock)

    setups = [subprocess.Popen([tmp_path / "bin" / "setup"], env=env, stderr=subprocess.PIPE) for _ in range(2)]
    said = [setup.communicate(timeout=60)[1] for setup in setups]

    assert [setup.returncode for setup in setups] == [0, 0], said
    log = (tmp_path / "installs.log").read_text().splitlines()
    # one setup's three installs (pip, the service's dev extra, the tool in its own venv), each
    # whole: the other setup found the stamp the first left and installed nothing
    starts = sorted(line.split(" ", 2)[2] for line in log if line.startswith("start"))
    assert starts == ["install --quiet --upgrade pip", "install --quiet -e .[dev]", "install --quiet checkov==1"], log
    assert len(log) == 6
    assert [path.name for path in (tmp_path / ".venv").glob(".installed-*")] != []
    assert (tmp_path / ".venv" / "tools" / "checkov" / "bin" / "pip").exists()
