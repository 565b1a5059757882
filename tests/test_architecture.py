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

from game_core.games import registry
from game_core.games.protocol import GameSettings, Model

ROOT = Path(__file__).resolve().parent.parent
LAYER = ROOT / "layers" / "game_core" / "game_core"
GAMES = LAYER / "games"

# -- game package layout ----------------------------------------------------------------------------

LAYOUT = ("__init__.py", "models.py", "game.py", "views.py")
"""Every game package has these, and its rules: in `rules.py`, or in modules each named for a
concept of its rules (abstrac's `row`, `deal`, `cards`, `clocks`); anything beyond the layout is
listed in the package docstring."""
IN_GAMES = sorted(path.parent.name for path in GAMES.glob("*/__init__.py"))
PACKAGES = sorted({*IN_GAMES, *registry.AVAILABLE})
"""The games' packages under games/, and any game a test registered from elsewhere
(tests/sixth_game): each is held to the layout."""


def folder(game_id: str) -> Path:
    return Path(inspect.getfile(type(registry.load(game_id)))).parent


def package(game_id: str) -> str:
    return type(registry.load(game_id)).__module__.rpartition(".")[0]


def title(game_id: str) -> str:
    return "".join(part.capitalize() for part in game_id.split("_"))


def test_there_is_a_package_per_available_game() -> None:
    assert set(registry.AVAILABLE) <= set(IN_GAMES)


@pytest.mark.parametrize("game_id", PACKAGES)
def test_every_game_package_has_the_layout(game_id: str) -> None:
    package = folder(game_id)
    missing = [name for name in LAYOUT if not (package / name).is_file()]
    assert missing == [], f"games/{game_id} lacks {missing}"


@pytest.mark.parametrize("game_id", PACKAGES)
def test_every_game_package_has_its_rules_in_rules_py_or_in_modules_of_their_own(game_id: str) -> None:
    package = folder(game_id)
    beyond = {path.name for path in package.glob("*.py")} - {*LAYOUT, "text.py"}
    assert beyond, f"games/{game_id} has no rules module: add rules.py (or modules named for its rules)"


@pytest.mark.parametrize("game_id", PACKAGES)
def test_every_game_package_lists_its_other_modules_in_its_docstring(game_id: str) -> None:
    package = folder(game_id)
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
    extra = sorted(path.stem for path in package.glob("*.py") if path.name not in LAYOUT)
    unlisted = [name for name in extra if f"`{name}`" not in docstring]
    assert unlisted == [], f"games/{game_id}/__init__.py does not name {unlisted} in its docstring"


@pytest.mark.parametrize("game_id", PACKAGES)
def test_the_package_init_exports_game_and_nothing_of_substance(game_id: str) -> None:
    tree = ast.parse((folder(game_id) / "__init__.py").read_text(encoding="utf-8"))
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
    game = importlib.import_module(package(game_id)).GAME
    models = importlib.import_module(f"{package(game_id)}.models")
    module = importlib.import_module(f"{package(game_id)}.game")
    assert type(game).__name__ == f"{name}Game" and type(game).__module__ == module.__name__
    assert game.id == game_id
    assert (game.Settings.__name__, game.Settings.__module__) == (f"{name}Settings", models.__name__)
    assert (game.State.__name__, game.State.__module__) == (f"{name}State", models.__name__)
    # No other class in the package takes the scheme's names or the bare ones.
    for path in folder(game_id).glob("*.py"):
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


def test_every_test_marked_slow_is_there() -> None:
    # conftest.SLOW names tests by node id (from its start): a renamed or moved one must not drop
    # silently out of the list, and so into `bin/test --fast`
    from conftest import SLOW

    missing = []
    for node in SLOW:
        path, _, name = node.partition("::")
        tests = set(function_lengths((ROOT / path).read_text(encoding="utf-8"))) if (ROOT / path).is_file() else set()
        if not tests or (name and not any(test.startswith(name) for test in tests)):
            missing.append(node)
    assert missing == []


# -- no import cycle ---------------------------------------------------------------------------------
# A cycle is one however it is hidden: an import inside a function or under `if TYPE_CHECKING:` still
# says each module needs the other, and the two belong together or share something a third should hold.

PACKAGES_WITHOUT_CYCLES = (LAYER, ROOT / "local_stack")
"""`game_core` and `local_stack`: their modules are named from these folders' parents."""


def module_name(path: Path) -> str:
    base = next(root.parent for root in PACKAGES_WITHOUT_CYCLES if path.is_relative_to(root))
    parts = list(path.relative_to(base).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_imported(path: Path, known: set[str], text: str | None = None) -> set[str]:
    """The modules of `known` that the source at `path` imports, wherever the import stands.
    `from package import module` is an import of the module (not of the package: importing any
    module imports its packages, which is no cycle); `from module import name`, of the module."""
    own = module_name(path)
    package = own.split(".") if path.name == "__init__.py" else own.split(".")[:-1]
    wanted: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8") if text is None else text)):
        if isinstance(node, ast.Import):
            wanted += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join([*package[: len(package) - node.level + 1], *([node.module] if node.module else [])])
            module = base if node.level else node.module or ""
            wanted += [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
    found = set()
    for name in wanted:
        while name and name not in known:
            name = name.rpartition(".")[0]
        found |= {name} if name and name != own else set()
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for root in PACKAGES_WITHOUT_CYCLES for path in root.rglob("*.py")}
    return {name: modules_imported(path, set(paths)) for name, path in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    order: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in order:
            continue
        work = [(start, iter(sorted(graph[start])))]
        order[start] = lowest[start] = len(order)
        stack.append(start)
        while work:
            node, onward = work[-1]
            step = next((n for n in onward if n not in order or n in stack), None)
            if step is not None and step not in order:
                order[step] = lowest[step] = len(order)
                stack.append(step)
                work.append((step, iter(sorted(graph[step]))))
            elif step is not None:
                lowest[node] = min(lowest[node], order[step])
            else:
                work.pop()
                if work:
                    lowest[work[-1][0]] = min(lowest[work[-1][0]], lowest[node])
                if lowest[node] == order[node]:
                    group = stack[stack.index(node) :]
                    del stack[stack.index(node) :]
                    found += [sorted(group)] if len(group) > 1 else []
    return found


def test_no_import_cycle_among_game_core_and_local_stack() -> None:
    graph = import_graph()
    described = [
        " <-> ".join(group) + f" ({', '.join(f'{m} imports {sorted(graph[m] & set(group))}' for m in group)})"
        for group in cycles(graph)
    ]
    assert described == []


def test_the_cycle_reader_sees_hidden_imports() -> None:
    # Two local_stack modules tied only by a deferred import and a TYPE_CHECKING one, and a
    # package whose module imports a sibling through the package (no cycle: packages load first)
    known = {"local_stack", "local_stack.a", "local_stack.b", "local_stack.c"}
    a = "def later():\n    from local_stack.b import thing\n"
    b = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n"
    c = "from . import b\n"
    graph = {
        "local_stack": set(),
        "local_stack.a": modules_imported(ROOT / "local_stack" / "a.py", known, a),
        "local_stack.b": modules_imported(ROOT / "local_stack" / "b.py", known, b),
        "local_stack.c": modules_imported(ROOT / "local_stack" / "c.py", known, c),
    }
    assert graph["local_stack.c"] == {"local_stack.b"}
    assert cycles(graph) == [["local_stack.a", "local_stack.b"]]
    assert cycles({"x": {"y"}, "y": {"z"}, "z": {"x", "w"}, "w": set()}) == [["x", "y", "z"]]


# -- rooms: the tree shows the architecture ---------------------------------------------------------
# service/ and local_stack/ are grouped by what each part serves; each room's __init__ says what
# lives there and what it may import, and these rules hold it to that.

SERVICE = LAYER / "service"
KERNEL = {"__init__", "ports", "workflow_port", "event", "retries", "commands"}
"""What stays flat in service/: the ports the use cases are written against, the retry loop, and
`commands`, the dispatcher into every room."""
SERVICE_ROOMS: dict[str, set[str]] = {
    "matches": {"telling", "webhooks"},
    "host": {"matches", "telling", "webhooks"},
    "telling": {"matches", "webhooks"},
    "webhooks": {"matches", "telling"},
    "mail": {"matches", "telling", "webhooks", "season", "commands"},
    "season": {"matches", "host", "telling", "webhooks", "mail"},
    "page": {"matches", "telling", "season"},
}
"""Each room under service/, and the other rooms it may import; any may import the kernel but
`commands`, the dispatcher, which only mail does (the host's commands by mail run as the console's).
No room imports `page`: the page is a channel's end, served by the functions and the laptop."""
KERNEL_READS = {
    "game_core.service.ports": {
        "game_core.service.matches.sheets",
        "game_core.service.webhooks.queue",
        "game_core.service.season.ports",
    },
}
"""The kernel's ports name a room's data types and ports, and nothing else of the rooms."""
LOCAL_ROOMS: dict[str, set[str]] = {"aws": set(), "laptop": {"aws"}, "bots": {"aws"}}
"""Each room of local_stack/, and the others it may import: the moto stack stands alone, the
laptop's server and the bots are built on it and know nothing of each other."""


def room_of(module: str) -> str | None:
    """`service.<room>` or `local_stack.<room>` of a module, `service.<kernel module>` for the kernel."""
    parts = module.split(".")
    if parts[:2] == ["game_core", "service"] and len(parts) > 2:
        return f"service.{parts[2]}"
    if parts[0] == "local_stack" and len(parts) > 1:
        return f"local_stack.{parts[1]}"
    return None


def room_imports() -> dict[str, set[str]]:
    """Each room's modules' imports of other rooms (the kernel's modules are rooms of their own)."""
    found: dict[str, set[str]] = {}
    for module, imports in import_graph().items():
        room = room_of(module)
        if room is not None:
            found.setdefault(room, set()).update(r for r in map(room_of, imports) if r not in {None, room})
    return found


def test_service_and_local_stack_hold_rooms_and_only_the_kernel_stands_flat() -> None:
    assert {path.stem for path in SERVICE.glob("*.py")} == KERNEL
    assert {path.parent.name for path in SERVICE.glob("*/__init__.py")} == set(SERVICE_ROOMS)
    assert {path.name for path in (ROOT / "local_stack").glob("*.py")} == {"__init__.py"}
    assert {path.parent.name for path in (ROOT / "local_stack").glob("*/__init__.py")} == set(LOCAL_ROOMS)


ROOM_FOLDERS = sorted(
    [*(SERVICE / room for room in SERVICE_ROOMS), *(ROOT / "local_stack" / room for room in LOCAL_ROOMS)]
)


@pytest.mark.parametrize("room", ROOM_FOLDERS, ids=[room.name for room in ROOM_FOLDERS])
def test_every_room_names_its_modules_and_what_it_may_import(room: Path) -> None:
    docstring = ast.get_docstring(ast.parse((room / "__init__.py").read_text(encoding="utf-8"))) or ""
    games = set(registry.AVAILABLE) if room.name == "bots" else set()  # a bot per game, named for it
    unnamed = sorted(
        p.stem for p in room.glob("*.py") if p.stem not in {"__init__", *games} and f"`{p.stem}`" not in docstring
    )
    assert unnamed == [], f"{room.relative_to(ROOT)}/__init__.py does not name {unnamed}"
    assert "May import" in docstring, f"{room.relative_to(ROOT)}/__init__.py does not say what it may import"


def test_each_service_room_imports_only_the_rooms_it_may() -> None:
    imports = room_imports()
    kernel = {f"service.{name}" for name in KERNEL - {"__init__", "commands"}}
    bad = {
        room: sorted(imports.get(f"service.{room}", set()) - kernel - {f"service.{other}" for other in allowed})
        for room, allowed in SERVICE_ROOMS.items()
    }
    assert {room: names for room, names in bad.items() if names} == {}


def test_the_kernel_imports_of_the_rooms_only_what_its_ports_name() -> None:
    graph = import_graph()
    kernel = {f"game_core.service.{name}" for name in KERNEL - {"__init__", "commands"}}
    reads = {
        module: sorted(name for name in graph[module] if name not in kernel and name.startswith("game_core.service."))
        for module in kernel
    }
    assert reads == {module: sorted(KERNEL_READS.get(module, set())) for module in kernel}


def test_each_local_stack_room_imports_only_the_rooms_it_may() -> None:
    imports = room_imports()
    bad = {
        room: sorted(
            r
            for r in imports.get(f"local_stack.{room}", set())
            if r.startswith("local_stack.") and r.partition(".")[2] not in allowed
        )
        for room, allowed in LOCAL_ROOMS.items()
    }
    assert {room: names for room, names in bad.items() if names} == {}


def test_game_core_imports_nothing_of_local_stack() -> None:
    graph = import_graph()
    bad = sorted(
        m
        for m, imports in graph.items()
        if m.startswith("game_core") and any(i.startswith("local_stack") for i in imports)
    )
    assert bad == []


def test_the_room_rules_see_a_forbidden_import() -> None:
    # A page module importing the host's powers, a bot importing the laptop's server: both caught.
    known = {
        "game_core.service.page.x",
        "game_core.service.host.powers",
        "local_stack.bots.y",
        "local_stack.laptop.server",
    }
    page = modules_imported(SERVICE / "page" / "x.py", known, "from game_core.service.host import powers\n")
    bot = modules_imported(
        ROOT / "local_stack" / "bots" / "y.py", known, "def later():\n    from local_stack.laptop import server\n"
    )
    assert {str(room_of(m)).partition(".")[2] for m in page} == {"host"} and "host" not in SERVICE_ROOMS["page"]
    assert {str(room_of(m)).partition(".")[2] for m in bot} == {"laptop"} and "laptop" not in LOCAL_ROOMS["bots"]


# -- modules a newcomer can read ---------------------------------------------------------------------

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
SIZED = (LAYER, ROOT / "local_stack", ROOT / "functions", ROOT / "benchmarks")
"""Every Python module of these folders, and bin/'s Python scripts, is held to the sizes."""


def sized_files() -> list[Path]:
    scripts = [path for path in (ROOT / "bin").iterdir() if path.is_file()]
    python = [path for path in scripts if path.suffix == ".py" or b"python" in path.read_bytes().split(b"\n", 1)[0]]
    return sorted({*(path for root in SIZED for path in root.rglob("*.py")), *python})


def function_lengths(text: str) -> dict[str, int]:
    """Each function's (and method's) lines, from its `def` to its last line, by name."""
    functions = (node for node in ast.walk(ast.parse(text)) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))
    return {node.name: (node.end_lineno or node.lineno) - node.lineno + 1 for node in functions}


def lengths() -> dict[str, int]:
    """Every module over MAX_MODULE_LINES and every function over MAX_FUNCTION_LINES, by path (and
    path::name), with its lines."""
    found: dict[str, int] = {}
    for path in sized_files():
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        if len(text.splitlines()) > MAX_MODULE_LINES:
            found[where] = len(text.splitlines())
        found |= {f"{where}::{name}": n for name, n in function_lengths(text).items() if n > MAX_FUNCTION_LINES}
    return found


def test_no_module_over_400_lines_and_no_function_over_60() -> None:
    assert lengths() == {}, "split these where each has two jobs (not by cutting them in halves)"


def test_a_function_is_counted_from_its_def_to_its_last_line() -> None:
    body = "\n".join(f"    x{n} = {n}" for n in range(MAX_FUNCTION_LINES - 1))  # 59 lines under the def: 60
    method = body.replace("    ", "        ") + "\n        return 0"  # 59 lines and one more under the def: 61
    text = f"def fits():\n{body}\n\n\nclass C:\n    def over(self):\n{method}\n"
    assert function_lengths(text) == {"fits": MAX_FUNCTION_LINES, "over": MAX_FUNCTION_LINES + 1}
