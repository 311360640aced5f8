"""The architecture of issue 14 stays as built (docs/architecture.md draws it).

- The layers: a package imports only packages below it; siblings on one layer import neither
  each other (the same check as the import-linter ``layers`` contract, done here with grimp, the
  graph import-linter builds, so that the test names the offending import).
- No import cycle between modules of our packages.
- Sizes, measured with radon, in every package: no module over 500 lines (the JavaScript and CSS
  of the components counted as modules), no function (method, closure) over 60 lines or of
  cyclomatic complexity over 15. The largest module, the longest and the most complex functions
  are printed (``pytest -rA tests/test_architecture.py`` shows them).
- No ``# type: ignore`` without its error code and a reason; the view models (VIEW_MODELS)
  import no Streamlit.
- The dashboard by feature (issue 34): every module in a folder of DASHBOARD_FOLDERS, and a
  folder imports only itself and the folders below it.
- The tests by layer (issue 34): a test folder (TEST_FOLDERS) imports only its package's layer
  and below, with what its shared helpers and conftest fixtures import; the simulator is test data
  for every layer (TEST_DATA); tests/browser, tests/hostile and tests/*.py are whole-system.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import grimp
from radon.complexity import cc_visit
from radon.raw import analyze
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parents[1]

# Top to bottom; the packages of one tuple are siblings that may not import each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("brag", "dashboard"),
    ("service",),
    ("analytics", "sim", "solver"),
    ("present",),
    ("log",),
    ("timeline",),
    ("engine", "store"),
    ("events",),
)
# Every package (issue 23; issue 14 set them for engine/ and store/).
MAX_MODULE_LINES = 500  # radon's loc: every line, blank and comment lines too; JS and CSS too
MAX_FUNCTION_LINES = 60
MAX_COMPLEXITY = 15


def ours() -> list[str]:
    """The packages of LAYERS that exist (some arrive during the redesign)."""
    names = [name for layer in LAYERS for name in layer]
    return [name for name in names if importlib.util.find_spec(name) is not None]


@functools.cache
def import_graph() -> grimp.ImportGraph:
    # Every import counts, those under `if TYPE_CHECKING:` too: they are dependencies all the same.
    return grimp.build_graph(*ours(), cache_dir=None)


def strongly_connected(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """The components of more than one module (Tarjan), each sorted, in a stable order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def a_cycle(component: list[str], edges: Mapping[str, set[str]]) -> list[str]:
    """One cycle through the component's first module, shortest first (breadth-first)."""
    start = component[0]
    members = set(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for nxt in sorted(edges[node] & members):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if nxt not in came_from:
                    came_from[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no cycle in {component}")  # pragma: no cover


def import_line(graph: grimp.ImportGraph, importer: str, imported: str) -> str:
    details = graph.get_import_details(importer=importer, imported=imported)
    where = ", ".join(f"line {d['line_number']}" for d in details)
    return f"{importer} -> {imported}" + (f" ({where})" if where else "")


def layer_of(module: str) -> int:
    """0 for the top layer; larger is lower."""
    package = module.split(".")[0]
    return next(i for i, layer in enumerate(LAYERS) if package in layer)


def against_the_layers(importer: str, imported: str) -> bool:
    """An import of a package above, or of a sibling on the same layer."""
    if importer.split(".")[0] == imported.split(".")[0]:
        return False
    return layer_of(importer) >= layer_of(imported)


def test_no_package_imports_a_package_above_it_or_a_sibling() -> None:
    graph = import_graph()
    offences = sorted(
        import_line(graph, importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if against_the_layers(importer, imported)
    )
    layers_text = " > ".join(" | ".join(layer) for layer in LAYERS)
    assert not offences, f"imports against the layers ({layers_text}):\n" + "\n".join(offences)
    # The same question as import-linter's layers contract, asked of grimp: nothing indirect either.
    present = set(ours())
    layers = [
        grimp.Layer(*[name for name in layer if name in present], independent=True)
        for layer in LAYERS
        if any(name in present for name in layer)
    ]
    assert graph.find_illegal_dependencies_for_layers(layers=layers) == set()


def test_no_import_cycle_between_modules() -> None:
    graph = import_graph()
    edges = {
        module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules
    }
    cycles = [" -> ".join(a_cycle(c, edges)) for c in strongly_connected(edges)]
    assert not cycles, "import cycles between modules (one cycle per group shown):\n" + "\n".join(
        cycles
    )


def test_the_checks_themselves_see_a_cycle_and_an_import_upwards() -> None:
    edges = {"log.a": {"log.b"}, "log.b": {"log.c"}, "log.c": {"log.a"}, "log.d": {"log.a"}}
    assert strongly_connected(edges) == [["log.a", "log.b", "log.c"]]
    assert a_cycle(["log.a", "log.b", "log.c"], edges) == ["log.a", "log.b", "log.c", "log.a"]
    assert against_the_layers("events.model", "engine.state")  # below imports above
    assert against_the_layers("engine.apply", "store.port")  # siblings
    assert not against_the_layers("log.service", "store.port")
    assert not against_the_layers("engine.apply", "engine.state")


@dataclass(frozen=True)
class Measured:
    where: str  # path:line name
    lines: int
    complexity: int


def python_files(package: str) -> list[Path]:
    folder = ROOT / package
    return sorted(folder.rglob("*.py")) if folder.is_dir() else []


def functions(blocks: list[Function | Class]) -> Iterator[Function]:
    """Every function radon found: methods and closures (each measured on its own) included."""
    for block in blocks:
        if isinstance(block, Class):
            yield from functions(list(block.methods) + list(block.inner_classes))
        else:
            yield block
            yield from functions(list(block.closures))


def measured_functions(package: str) -> list[Measured]:
    out = []
    for path in python_files(package):
        relative = path.relative_to(ROOT).as_posix()
        for fn in functions(cc_visit(path.read_text())):
            out.append(
                Measured(
                    f"{relative}:{fn.lineno} {fn.fullname}",
                    fn.endline - fn.lineno + 1,
                    fn.complexity,
                )
            )
    return out


def module_lines(packages: tuple[str, ...]) -> dict[str, int]:
    return {
        path.relative_to(ROOT).as_posix(): analyze(path.read_text()).loc
        for package in packages
        for path in python_files(package)
    }


def packages() -> tuple[str, ...]:
    """Every package of LAYERS, top to bottom: the limits hold in each."""
    return tuple(name for layer in LAYERS for name in layer)


def component_files(package: str) -> list[Path]:
    """The JavaScript and CSS of a package's browser components, measured as modules."""
    folder = ROOT / package
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in {".js", ".css"})


def all_module_lines() -> dict[str, int]:
    sizes = module_lines(packages())
    for package in packages():
        for path in component_files(package):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            sizes[path.relative_to(ROOT).as_posix()] = lines
    return sizes


def all_functions() -> list[Measured]:
    # radon lists a method both in its class and (with the same place) on its own: once each.
    unique = {m.where: m for package in packages() for m in measured_functions(package)}
    return list(unique.values())


def test_no_module_over_500_lines() -> None:
    """Every package, the components' JS and CSS counted as modules (issue 23)."""
    largest = sorted(all_module_lines().items(), key=lambda item: -item[1])
    print("largest modules:", ", ".join(f"{p} {n}" for p, n in largest[:5]))
    over = [f"{p}: {n} lines" for p, n in largest if n > MAX_MODULE_LINES]
    assert not over, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(over)


def test_no_function_over_60_lines() -> None:
    measured = sorted(all_functions(), key=lambda m: -m.lines)
    print("longest functions:", ", ".join(f"{m.where} {m.lines}" for m in measured[:5]))
    over = [f"{m.where}: {m.lines} lines" for m in measured if m.lines > MAX_FUNCTION_LINES]
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(over)


def test_no_function_of_complexity_over_15() -> None:
    measured = sorted(all_functions(), key=lambda m: -m.complexity)
    print("most complex functions:", ", ".join(f"{m.where} {m.complexity}" for m in measured[:5]))
    over = [
        f"{m.where}: complexity {m.complexity}" for m in measured if m.complexity > MAX_COMPLEXITY
    ]
    assert not over, f"functions of complexity over {MAX_COMPLEXITY}:\n" + "\n".join(over)


IGNORE = re.compile(r"#\s*type:\s*ignore(?P<code>\[[^\]]*\])?(?P<rest>.*)$")


def unexplained_ignore(line: str) -> bool:
    """A ``# type: ignore`` without its error code and a reason after it
    (``# type: ignore[code]  # why``)."""
    found = IGNORE.search(line)
    if found is None:
        return False
    return not (found["code"] and re.match(r"\s*#\s*\S", found["rest"]))


def test_every_type_ignore_gives_its_reason() -> None:
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{n}: {line.strip()}"
        for package in packages()
        for path in python_files(package)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if unexplained_ignore(line)
    ]
    assert not found, "type: ignore without [code] and a reason:\n" + "\n".join(found)


def test_the_checks_themselves_see_an_unexplained_ignore() -> None:
    assert unexplained_ignore("x = f()  # type: ignore")
    assert unexplained_ignore("x = f()  # type: ignore[arg-type]")
    assert not unexplained_ignore("x = f()  # type: ignore[arg-type]  # pydantic coerces it")
    assert not unexplained_ignore("x = f()  # a comment")


# The dashboard by feature (issue 34, docs/architecture.md): its folders, top to bottom. A folder's
# module imports its own folder and the folders below it, never one above: the Record page may
# use the replayer and the gate, the replay never the Record page, the shared part no feature.
DASHBOARD_FOLDERS = ("record", "night", "replay", "stats", "access", "common")
# What puts the features together, and so imports them all: the entry script, the server that
# mounts every feature's routes, the warm-up that fills every feature's caches.
COMPOSITION_ROOTS = frozenset({"dashboard.app", "dashboard.common.server", "dashboard.common.warm"})
# The dashboard's Streamlit-free half: what the pages and components show, worked out without
# Streamlit (frames, odds, the pad's documents and keys, links, statistics' tables, tokens). Any
# module of the dashboard may import them; they import no Streamlit and nothing else of the
# dashboard's but each other.
VIEW_MODELS = frozenset(
    {
        "dashboard.access.tokens",
        "dashboard.common.links",
        "dashboard.night.board",
        "dashboard.record.choices",
        "dashboard.record.pad_doc",
        "dashboard.record.pad_rows",
        "dashboard.record.recorder",
        "dashboard.replay.frames",
        "dashboard.replay.odds",
        "dashboard.stats.own",
        "dashboard.stats.tables",
    }
)


def folder_of(module: str) -> str | None:
    """``record`` for ``dashboard.record.routes``; None for a module outside the folders."""
    parts = module.split(".")
    if parts[0] != "dashboard" or len(parts) < 3 or parts[1] not in DASHBOARD_FOLDERS:
        return None
    return parts[1]


def against_the_folders(importer: str, imported: str) -> bool:
    """An import of a folder above the importer's (a view model may be imported from anywhere)."""
    mine, theirs = folder_of(importer), folder_of(imported)
    if mine is None or theirs is None or mine == theirs or imported in VIEW_MODELS:
        return False
    if importer in COMPOSITION_ROOTS:
        return False
    return DASHBOARD_FOLDERS.index(theirs) < DASHBOARD_FOLDERS.index(mine)


def test_every_dashboard_module_is_in_a_feature_folder() -> None:
    """The dashboard is sorted by feature: every module but the entry script is in a folder of
    DASHBOARD_FOLDERS, and every view model named above exists."""
    graph = import_graph()
    ours = {m for m in graph.modules if m.startswith("dashboard.")}
    loose = sorted(m for m in ours if folder_of(m) is None and m not in DASHBOARD_FOLDERS_PACKAGES)
    assert loose == ["dashboard.app"], loose
    assert ours >= VIEW_MODELS, sorted(VIEW_MODELS - ours)


DASHBOARD_FOLDERS_PACKAGES = frozenset(f"dashboard.{f}" for f in DASHBOARD_FOLDERS)


def test_the_dashboard_folders_import_downward() -> None:
    graph = import_graph()
    offences = sorted(
        import_line(graph, importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if against_the_folders(importer, imported)
    )
    order = " > ".join(DASHBOARD_FOLDERS)
    assert not offences, f"imports against the dashboard's folders ({order}):\n" + "\n".join(
        offences
    )


def test_the_folder_check_sees_an_upward_import() -> None:
    assert against_the_folders("dashboard.common.ui", "dashboard.record.widgets")
    assert against_the_folders("dashboard.stats.widgets", "dashboard.replay.widgets")
    assert not against_the_folders("dashboard.record.widgets", "dashboard.replay.widgets")
    assert not against_the_folders("dashboard.common.cache", "dashboard.replay.frames")
    assert not against_the_folders("dashboard.common.server", "dashboard.record.routes")


def test_the_view_models_import_no_streamlit() -> None:
    """The view models are the dashboard's Streamlit-free half (docs/architecture.md)."""
    graph = import_graph()
    offences = sorted(
        import_line(graph, importer, imported)
        for importer in VIEW_MODELS
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported.split(".")[0] == "streamlit"
        or (imported.startswith("dashboard.") and imported not in VIEW_MODELS)
    )
    assert not offences, "the view models import Streamlit or a page:\n" + "\n".join(offences)


def test_the_import_linter_contract_draws_the_same_layers() -> None:
    """``lint-imports`` (in ``make lint``) and this module check one picture: the ``layers``
    contract in pyproject.toml lists LAYERS, top to bottom, siblings joined by ``|``."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layered = [c for c in contracts if c["type"] == "layers"]
    assert len(layered) == 1, layered
    drawn = tuple(tuple(p.strip() for p in layer.split("|")) for layer in layered[0]["layers"])
    assert drawn == LAYERS
    roots = set(config["tool"]["importlinter"]["root_packages"])
    assert roots == {p for layer in LAYERS for p in layer}


# The tests by layer (issue 34): a test folder tests one package and imports only that package
# and the layers below it, never a layer above nor a sibling of its own layer, as the packages
# themselves. A test imports what the shared helpers it imports (tests/*.py, by bare name) import,
# transitively, and what the fixtures of tests/conftest.py it asks for (by parameter name) import.
TEST_FOLDERS: Mapping[str, str] = {
    "events": "events",
    "engine": "engine",
    "store": "store",
    "timeline": "timeline",
    "log": "log",
    "present": "present",
    "analytics": "analytics",
    "sim": "sim",
    "solver": "solver",
    "service": "service",
    "cli": "brag",
    "dashboard": "dashboard",
}
# The whole-system tests (the top layer: they may import anything): these folders and the test
# modules at the top of tests/.
WHOLE_SYSTEM_FOLDERS = frozenset({"browser", "hostile"})
# Test data for every layer, a named exception: the simulator's random legal sessions (sim.randplay,
# sim.simulate_session). sim imports only engine, events and log.gc_pause (the layers check it),
# and a test of any layer needs legal sessions to feed its package; writing them by hand in each
# folder would copy the simulator, not test it.
TEST_DATA = frozenset({"sim"})
# What a test imports of a framework only one package uses counts as that package: a test that
# imports Streamlit runs the dashboard's pages (AppTest).
FRAMEWORKS: Mapping[str, str] = {"streamlit": "dashboard"}
TESTS = ROOT / "tests"


def module_imports(tree: ast.AST) -> set[str]:
    """The absolute imports anywhere in ``tree`` (in functions too): ``a.b`` for ``from a.b
    import c`` and ``import a.b``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def shared_helpers() -> dict[str, Path]:
    """The tests' shared modules, imported by bare name (``store_helpers`` ...)."""
    return {p.stem: p for p in TESTS.glob("*.py") if not p.stem.startswith("test_")}


def fixture_imports(conftest: Path) -> dict[str, set[str]]:
    """What each fixture of ``conftest`` imports: its own imports and the module's (an autouse
    fixture's under the name ``""``, asked by every test)."""
    tree = ast.parse(conftest.read_text(encoding="utf-8"))
    top = module_imports(
        ast.Module(
            body=[n for n in tree.body if not isinstance(n, ast.FunctionDef)], type_ignores=[]
        )
    )
    found: dict[str, set[str]] = {"": set(top)}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.decorator_list:
            autouse = any("autouse" in ast.dump(d) for d in node.decorator_list)
            found.setdefault("" if autouse else node.name, set(top)).update(module_imports(node))
    return found


def asked_fixtures(tree: ast.AST) -> set[str]:
    """The parameter names of the functions in ``tree``: the fixtures they ask for."""
    return {
        arg.arg
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for arg in node.args.args + node.args.kwonlyargs
    }


def packages_imported(path: Path, helpers: Mapping[str, Path]) -> dict[str, str]:
    """Our packages that the test module ``path`` imports, each with the helper it came through
    (``""``: the module itself), the shared helpers followed transitively, and the fixtures of
    tests/conftest.py it asks for."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    fixtures = fixture_imports(TESTS / "conftest.py")
    todo = [(module_imports(tree), "")]
    asked = asked_fixtures(tree) | {""}
    todo += [(fixtures[name], "conftest.py") for name in sorted(asked & set(fixtures))]
    seen: set[str] = set()
    while todo:  # breadth first: an import is named by the shortest way to it
        modules, via = todo.pop(0)
        for module in sorted(modules):
            head = module.split(".")[0]
            if head in helpers and head not in seen:
                seen.add(head)
                helper_tree = ast.parse(helpers[head].read_text(encoding="utf-8"))
                todo.append((module_imports(helper_tree), via or f"{head}.py"))
            elif head in packages() or head in FRAMEWORKS:
                found.setdefault(FRAMEWORKS.get(head, head), via)
    return found


def against_the_test_layers(folder: str, imported: str) -> bool:
    """A test of ``tests/<folder>`` importing the package ``imported`` above its own, or a
    sibling of it (TEST_DATA excepted; a whole-system folder imports anything)."""
    if folder in WHOLE_SYSTEM_FOLDERS or imported in TEST_DATA:
        return False
    mine = TEST_FOLDERS[folder]
    return imported != mine and layer_of(imported) <= layer_of(mine)


def test_every_test_folder_imports_only_its_layer_and_below() -> None:
    helpers = shared_helpers()
    folders = sorted(p.name for p in TESTS.iterdir() if p.is_dir() and any(p.glob("*.py")))
    unknown = [f for f in folders if f not in TEST_FOLDERS and f not in WHOLE_SYSTEM_FOLDERS]
    assert not unknown, f"test folders of no layer (add them to TEST_FOLDERS): {unknown}"
    offences = sorted(
        f"tests/{folder}/{path.name}: imports {package} "
        + ("(sibling)" if layer_of(package) == layer_of(TEST_FOLDERS[folder]) else "(layer above)")
        + (f" through {via}" if via else "")
        for folder in folders
        for path in sorted((TESTS / folder).glob("*.py"))
        for package, via in packages_imported(path, helpers).items()
        if against_the_test_layers(folder, package)
    )
    layers_text = " > ".join(" | ".join(layer) for layer in LAYERS)
    assert not offences, f"tests importing against the layers ({layers_text}):\n" + "\n".join(
        offences
    )


def test_the_test_layers_check_sees_an_import_upwards(tmp_path: Path) -> None:
    assert against_the_test_layers("events", "brag")
    assert against_the_test_layers("log", "dashboard")
    assert against_the_test_layers("store", "engine")  # a sibling
    assert not against_the_test_layers("log", "store")
    assert not against_the_test_layers("cli", "brag")
    assert not against_the_test_layers("timeline", "sim")  # test data
    assert not against_the_test_layers("hostile", "dashboard")
    helper = tmp_path / "mixed_helpers.py"
    helper.write_text("from brag.cli import main\n", encoding="utf-8")
    test = tmp_path / "test_x.py"
    test.write_text("def test_x() -> None:\n    from mixed_helpers import main\n", encoding="utf-8")
    assert packages_imported(test, {"mixed_helpers": helper}) == {"brag": "mixed_helpers.py"}
