"""The architecture of issue 14 stays as built.

- Sizes, measured with radon: no module in ``engine/`` or ``store/`` over 500 lines; no function
  in ``engine/`` over 60 lines or of cyclomatic complexity over 15. The largest are printed
  (``pytest -rA tests/test_architecture.py`` shows them).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from radon.complexity import cc_visit
from radon.raw import analyze
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parents[1]

MAX_MODULE_LINES = 500  # engine/ and store/
MAX_FUNCTION_LINES = 60  # engine/
MAX_COMPLEXITY = 15  # engine/


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


def test_no_module_in_the_engine_or_the_store_over_500_lines() -> None:
    sizes = module_lines(("engine", "store"))
    largest = sorted(sizes.items(), key=lambda item: -item[1])
    print("largest modules in engine/, store/:", ", ".join(f"{p} {n}" for p, n in largest[:5]))
    over = [f"{p}: {n} lines" for p, n in largest if n > MAX_MODULE_LINES]
    assert not over, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(over)


def test_no_function_in_the_engine_over_60_lines() -> None:
    measured = sorted(measured_functions("engine"), key=lambda m: -m.lines)
    print("longest functions in engine/:", ", ".join(f"{m.where} {m.lines}" for m in measured[:5]))
    over = [f"{m.where}: {m.lines} lines" for m in measured if m.lines > MAX_FUNCTION_LINES]
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(over)


def test_no_function_in_the_engine_of_complexity_over_15() -> None:
    measured = sorted(measured_functions("engine"), key=lambda m: -m.complexity)
    print(
        "most complex functions in engine/:",
        ", ".join(f"{m.where} {m.complexity}" for m in measured[:5]),
    )
    over = [
        f"{m.where}: complexity {m.complexity}" for m in measured if m.complexity > MAX_COMPLEXITY
    ]
    assert not over, f"functions of complexity over {MAX_COMPLEXITY}:\n" + "\n".join(over)
