"""The same facts on a distributed engine (issue 20, item 5): Apache Spark, in local mode, reads
the Hive-partitioned lake (``brag analytics export --parquet DIR``) with nothing of Bragbook and
computes ``player_stats`` and the decisions' counts per player and action equal to ``brag stats``
and ``brag analytics show decisions``. ``docs/cluster.md`` runs the same on a cluster.

Needs ``pyspark`` (the test extra) and a Java runtime (Debian's OpenJDK 17; ``.ci/run`` installs
it). Without Java the test skips, saying so, except under ``CI=true``, where it fails."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from brag.cli import main
from events.text import normal

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SEASON = sorted(str(p) for p in (ROOT / "data" / "season").glob("*.jsonl"))
EXAMPLES = sorted(str(p) for p in (ROOT / "data" / "examples").glob("*.jsonl"))


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    pyspark = pytest.importorskip("pyspark", reason="pyspark is in the test extra")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        why = "no Java runtime for Spark (apt-get install openjdk-17-jre-headless)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{why} (CI=true: the Spark test must run)")
        pytest.skip(why)
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[1]")
        .appName("bragbook-lake-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "512m")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    assert pyspark.__version__
    try:
        yield session
    finally:
        session.stop()


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A store of 12 season sessions (three tables, three months) and the rule card's examples
    (at no table, with no time: the NULL partitions), and its lake."""
    folder = tmp_path_factory.mktemp("spark")
    db = folder / "club.db"
    assert main(["import", "--db", str(db), *SEASON[:12], *EXAMPLES]) == 0
    assert main(["export", "--db", str(db), "--parquet", str(folder / "lake")]) == 0
    return db, folder / "lake"


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    capsys.readouterr()
    assert main([*argv, "--format", "json"]) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    return rows


def _job() -> Any:
    """``docs/spark_lake.py``, the job docs/cluster.md submits, loaded as a module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("spark_lake", ROOT / "docs" / "spark_lake.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COUNTED = ("sessions", "deals", "pots_won", "pots_won_showdown", "pots_won_uncontested",
           "blind_rate_n", "carried_caused", "net", "net_per_deal", "biggest_pot_won")  # fmt: skip


def test_spark_computes_player_stats_from_the_lake_equal_to_brag_stats(
    spark: Any, lake: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, folder = lake
    stats = _json(["stats", "--db", str(db), "--no-refresh"], capsys)
    # Spark alone: the partitioned folder, its partitions discovered from the paths.
    pd = spark.read.parquet(str(folder / "player_deals"))
    assert {"table_name", "month"} <= set(pd.columns)
    tables = {r[0] for r in pd.select("table_name").distinct().collect()}
    assert tables == {"Top table", "Back room", "Window table", None}  # None: the examples
    job = _job()
    for table in (None, "top TABLE"):
        argv = ["stats", "--db", str(db), "--no-refresh"]
        want = _json([*argv, "--table", table], capsys) if table else stats
        got = job.player_stats(spark, str(folder), table)
        by_key = {normal(s["player"]): s for s in want}
        assert [r["player_key"] for r in got] == list(by_key)  # same players, best net first
        for r in got:
            s = by_key[r["player_key"]]
            assert r["player"] == s["player"] or table  # the spelling seated most often
            for column in COUNTED:
                assert r[column] == s[column], (table, r["player_key"], column)
            for rate, _, _ in job.RATES:
                assert r[f"{rate}_n"] == s[f"{rate}_n"], (table, r["player_key"], rate)
                want_rate = s[rate]
                assert r[rate] == (pytest.approx(want_rate) if want_rate is not None else None)
    # The exactness the job keeps: over ended deals, the players' nets plus the pots carried
    # out of them and still on the table sum to 0 (RULES 1.5, 6.1), to the tick.
    deals = spark.read.parquet(str(folder / "deals"))
    deals.createOrReplaceTempView("deals")
    last_carried = spark.sql(
        "SELECT d.pot_t, d.den FROM deals d JOIN (SELECT session, max(deal) AS deal FROM deals "
        "GROUP BY session) m ON d.session = m.session AND d.deal = m.deal "
        "WHERE d.result = 'carried'"
    ).collect()
    on_table = sum((Fraction(r.pot_t, r.den) for r in last_carried), Fraction(0))
    nets = sum(Fraction(r["net"]) for r in job.player_stats(spark, str(folder)))
    assert nets + on_table == 0
    # The lake's own player_stats file, read by Spark, is brag stats too.
    exported = [r.asDict() for r in spark.read.parquet(str(folder / "player_stats")).collect()]
    assert exported == stats


def test_spark_counts_the_decisions_per_player_and_action_as_the_projection(
    spark: Any, lake: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    db, folder = lake
    shown = _json(["analytics", "show", "decisions", "--db", str(db), "--no-refresh"], capsys)
    want = {(normal(r["player"]), r["action"]): r for r in shown}
    assert sum(r["decisions"] for r in shown) > 1000
    dec = spark.read.parquet(str(folder / "decisions"))
    assert {"table_name", "month", "player_key", "action", "actor_seen"} <= set(dec.columns)
    got = _job().decision_counts(spark, str(folder))
    assert {(r["player_key"], r["action"]) for r in got} == set(want)
    for r in got:
        w = want[(r["player_key"], r["action"])]
        counts = (r["decisions"], r["blind"], r["won"])
        assert counts == (w["decisions"], w["blind"], w["won"]), (r["player_key"], r["action"])
    # One table's sessions alone (its partition) hold that table's decisions only.
    top = _job().decision_counts(spark, str(folder), "Top table")
    shown_top = _json(
        ["analytics", "show", "decisions", "--db", str(db), "--no-refresh", "--table", "top TABLE"],
        capsys,
    )
    assert sum(r["decisions"] for r in top) == sum(r["decisions"] for r in shown_top) > 0


def test_the_job_submitted_prints_only_json_lines_on_stdout(
    spark: Any, lake: tuple[Path, Path]
) -> None:
    """Issue 35 (item 6): ``spark-submit docs/spark_lake.py LAKE > spark.jsonl``, as
    docs/cluster.md says (the environment activated: its ``bin`` first on ``PATH``), writes JSON
    Lines and nothing else: spark-submit pipes the Python driver's stderr into its stdout, so a
    library's warning (PySpark's FutureWarning about pandas) made the first line not JSON."""
    import subprocess
    import sys

    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONWARNINGS", None)
    run = subprocess.run(
        [str(bin_dir / "spark-submit"), "--master", "local[1]", "--driver-memory", "512m",
         str(ROOT / "docs" / "spark_lake.py"), str(lake[1]), "--table", "Top table"],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert lines, run.stderr[-2000:]
    bad = []
    for k, line in enumerate(lines, 1):
        try:
            json.loads(line)
        except ValueError:
            bad.append(f"line {k}: {line[:120]}")
    assert not bad, bad
    kinds = {next(iter(json.loads(line))) for line in lines}
    assert kinds == {"player_stats", "decisions"}
