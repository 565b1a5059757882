"""The shape of the code, checked: every game package has the one layout (docs/GAME_AUTHORING.md)
and the layers import one way only.

Layers, lowest first: `games` (rules, pure), `match` (the match lifecycle, pure), `season` (a
season's rules and carried state, pure), `service` (the use cases, behind ports), `aws` (the
adapters). A layer imports nothing of the layers above it.
Imports are read with `ast`: `import x`, `from x import y` and relative imports alike, wherever
they stand in a module (also inside functions and `if TYPE_CHECKING:` blocks).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from game_core.games.protocol import GameSettings, Model

ROOT = Path(__file__).resolve().parent.parent
LAYER = ROOT / "layers" / "game_core" / "game_core"
GAMES = LAYER / "games"

# -- game package layout ----------------------------------------------------------------------------

LAYOUT = ("__init__.py", "models.py", "game.py", "views.py")
"""Every game package has these, and its rules: in `rules.py`, or in modules each named for a
concept of its rules (abstrac's `row`, `deal`, `cards`, `clocks`); anything beyond the layout is
listed in the package docstring."""
PACKAGES = sorted(path.parent.name for path in GAMES.glob("*/__init__.py"))


def title(game_id: str) -> str:
    return "".join(part.capitalize() for part in game_id.split("_"))


def test_there_is_a_package_per_available_game() -> None:
    from game_core.games import registry

    assert set(registry.AVAILABLE) <= set(PACKAGES)


@pytest.mark.parametrize("game_id", PACKAGES)
def test_every_game_package_has_the_layout(game_id: str) -> None:
    package = GAMES / game_id
    missing = [name for name in LAYOUT if not (package / name).is_file()]
    assert missing == [], f"games/{game_id} lacks {missing}"


@pytest.mark.parametrize("game_id", PACKAGES)
def test_every_game_package_has_its_rules_in_rules_py_or_in_modules_of_their_own(game_id: str) -> None:
    package = GAMES / game_id
    beyond = {path.name for path in package.glob("*.py")} - {*LAYOUT, "text.py"}
    assert beyond, f"games/{game_id} has no rules module: add rules.py (or modules named for its rules)"


@pytest.mark.parametrize("game_id", PACKAGES)
def test_every_game_package_lists_its_other_modules_in_its_docstring(game_id: str) -> None:
    package = GAMES / game_id
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
    extra = sorted(path.stem for path in package.glob("*.py") if path.name not in LAYOUT)
    unlisted = [name for name in extra if f"`{name}`" not in docstring]
    assert unlisted == [], f"games/{game_id}/__init__.py does not name {unlisted} in its docstring"


@pytest.mark.parametrize("game_id", PACKAGES)
def test_the_package_init_exports_game_and_nothing_of_substance(game_id: str) -> None:
    tree = ast.parse((GAMES / game_id / "__init__.py").read_text(encoding="utf-8"))
    assigned = []
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            assigned += [target.id for target in targets if isinstance(target, ast.Name)]
            continue
        pytest.fail(f"games/{game_id}/__init__.py holds more than imports and GAME (line {node.lineno})")
    assert set(assigned) <= {"GAME", "__all__"} and "GAME" in assigned


@pytest.mark.parametrize("game_id", PACKAGES)
def test_the_classes_are_named_by_the_scheme(game_id: str) -> None:
    name = title(game_id)
    game = importlib.import_module(f"game_core.games.{game_id}").GAME
    models = importlib.import_module(f"game_core.games.{game_id}.models")
    module = importlib.import_module(f"game_core.games.{game_id}.game")
    assert type(game).__name__ == f"{name}Game" and type(game).__module__ == module.__name__
    assert game.id == game_id
    assert (game.Settings.__name__, game.Settings.__module__) == (f"{name}Settings", models.__name__)
    assert (game.State.__name__, game.State.__module__) == (f"{name}State", models.__name__)
    # No other class in the package takes the scheme's names or the bare ones.
    for path in (GAMES / game_id).glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                assert node.name not in {"Settings", "State", "Game"}, f"{path.name}: class {node.name}"
    settings = [c for _, c in inspect.getmembers(models, inspect.isclass) if issubclass(c, GameSettings)]
    assert [c.__name__ for c in settings if c.__module__ == models.__name__] == [f"{name}Settings"]
    assert issubclass(game.State, Model)


# -- import direction --------------------------------------------------------------------------------

LAYERS = ("games", "match", "season", "service", "aws")
"""Lowest first: each may import only the layers before it (and itself)."""


def imported(path: Path, text: str | None = None) -> list[str]:
    """Every module the source at `path` (or `text`, as if it stood there) imports, and every
    name it imports from one, relative imports resolved to `game_core....` names."""
    package = list(path.relative_to(LAYER.parent).parts[:-1])
    source = path.read_text(encoding="utf-8") if text is None else text
    names: list[str] = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            names.append(module)
            names += [f"{module}.{alias.name}" for alias in node.names]
    return names


def layer_of(name: str) -> str | None:
    parts = name.split(".")
    if len(parts) >= 2 and parts[0] == "game_core" and parts[1] in LAYERS:
        return parts[1]
    return None


FILES = sorted(path for layer in LAYERS for path in (LAYER / layer).rglob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(LAYER)) for p in FILES])
def test_a_layer_imports_nothing_of_the_layers_above_it(path: Path) -> None:
    own = path.relative_to(LAYER).parts[0]
    above = set(LAYERS[LAYERS.index(own) + 1 :])
    bad = sorted({name for name in imported(path) if layer_of(name) in above})
    assert bad == [], f"{path.relative_to(ROOT)} ({own}) imports {bad}"


def test_the_import_reader_sees_every_form() -> None:
    # Source of a `games` module that breaks the rule in every way the reader must catch.
    text = (
        "import game_core.aws.wiring\n"
        "from game_core.service import submit\n"
        "from ..match import engine\n"
        "from ..service.ports import Store\n"
        "def later():\n"
        "    from game_core.match.model import Match\n"
    )
    names = imported(GAMES / "probe.py", text)
    assert {layer_of(name) for name in names} >= {"aws", "service", "match"}
    assert {"game_core.match.engine", "game_core.service.ports.Store", "game_core.match.model"} <= set(names)


def test_no_two_test_modules_share_a_name() -> None:
    # The test folders are no packages: two modules of one name stop the whole suite's collection
    # ("import file mismatch"), though each passes in a run of its own folder
    modules = sorted(path.name for path in (ROOT / "tests").rglob("test_*.py"))
    assert sorted({name for name in modules if modules.count(name) > 1}) == []
