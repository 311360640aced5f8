"""Bragbook's statistics from its lake on Apache Spark: ``player_stats`` and the decisions'
counts per player and action, from the Hive-partitioned Parquet that ``brag analytics export
--parquet DIR`` writes. Needs only PySpark (no Bragbook): run it where the league's Spark runs
(``docs/cluster.md``)::

    spark-submit spark_lake.py LAKE [--table NAME] [--out DIR]

``LAKE`` is the export's folder (a local path, ``hdfs://…`` or ``s3a://…``). On one machine, with
Bragbook's environment activated (``source .venv/bin/activate``: PySpark's ``spark-submit`` finds
Spark through the ``python3`` on ``PATH``), or as ``.venv/bin/python docs/spark_lake.py LAKE``.
It prints one JSON object per line and nothing else on stdout (``{"player_stats": {...}}`` then
``{"decisions": {...}}``; Python's warnings silenced, Spark's log on stderr); ``--out DIR``
also writes both as Parquet there. ``tests/cli/test_spark.py`` runs these functions in
local mode and checks them against ``brag stats`` and ``brag analytics show decisions``.

Money stays exact (RULES 1.2): ticks are summed per session denominator ``den`` on the cluster
and turned into stake units as exact fractions on the driver (a few rows per player), written as
FORMAT.md amount text (``"-17/2"``). The definitions are those of ``analytics/sql/stats.sql``
``player_stats`` (the counts over ended deals, ``player_deals``) and ``decisions``; players are
keyed by ``player_key`` (one normal form, one player).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from fractions import Fraction
from typing import Any

COUNTS = """
SELECT player_key,
       count(DISTINCT session) AS sessions,
       count(*) AS deals,
       sum(CAST(won AS INT)) AS pots_won,
       sum(CAST(won AND role IS NOT NULL AS INT)) AS pots_won_showdown,
       sum(CAST(left_how = 'won_uncontested' AS INT)) AS pots_won_uncontested,
       sum(CAST(first_action = 'blind' AS INT)) AS blind_first,
       count(first_action) AS blind_rate_n,
       sum(blind_bets) AS blind_bets,
       sum(CAST(bets > 0 AS INT)) AS deals_with_bet,
       sum(bets) AS bets,
       sum(raises) AS raises,
       sum(CAST(saw AS INT)) AS sees,
       sum(see_chances) AS see_chances,
       sum(CAST(role = 'payer' AS INT)) AS payer_showdowns,
       sum(CAST(role = 'payer' AND won AS INT)) AS payer_wins,
       sum(CAST(role = 'seen' AS INT)) AS seen_showdowns,
       sum(CAST(role = 'seen' AND won AS INT)) AS seen_wins,
       sum(CAST(left_how IN ('carried', 'retained') AS INT)) AS carried_caused
FROM player_deals {where}
GROUP BY player_key
"""
MONEY = """
SELECT player_key, den, sum(net_t) AS net_t, max(CASE WHEN won THEN won_t END) AS biggest_t
FROM player_deals {where}
GROUP BY player_key, den
"""
NAMES = """
SELECT player_key, player FROM (
    SELECT player_key, player,
           row_number() OVER (PARTITION BY player_key ORDER BY count(DISTINCT session) DESC,
                              player) AS k
    FROM player_deals GROUP BY player_key, player
) WHERE k = 1
"""
DECISIONS = """
SELECT player_key, action, count(*) AS decisions,
       sum(CAST(NOT actor_seen AS INT)) AS blind,
       sum(CAST(won AS INT)) AS won
FROM decisions {where}
GROUP BY player_key, action
"""
RATES = (
    ("blind_rate", "blind_first", "blind_rate_n"),
    ("avg_bets_before_looking", "blind_bets", "deals"),
    ("bet_share", "deals_with_bet", "deals"),
    ("raise_rate", "raises", "bets"),
    ("see_rate", "sees", "see_chances"),
    ("payer_win_rate", "payer_wins", "payer_showdowns"),
    ("seen_win_rate", "seen_wins", "seen_showdowns"),
)
"""Each rate of ``player_stats`` with its numerator and the count it is taken over."""


def amount_text(value: Fraction) -> str:
    """An exact amount as FORMAT.md writes it: ``"9"``, ``"-17/2"``."""
    return str(value.numerator) if value.denominator == 1 else f"{value}"


def _view(spark: Any, lake: str, table: str) -> None:
    """``lake/table`` as a temporary view; its partitions (``table_name``, ``month``) are read
    from the folder names, as Hive writes them."""
    spark.read.parquet(f"{lake.rstrip('/')}/{table}").createOrReplaceTempView(table)


def _where(table: str | None) -> tuple[str, dict[str, Any]]:
    if table is None:
        return "", {}
    return "WHERE lower(table_name) = lower(:table)", {"table": table}


def player_stats(spark: Any, lake: str, table: str | None = None) -> list[dict[str, Any]]:
    """Per player (``player_key``; ``player``: the spelling seated in most sessions): the counts
    of ``player_stats``, each rate beside its count, ``net`` and ``biggest_pot_won`` as exact
    amount text, over every session of the lake or those of one ``table`` (case aside)."""
    _view(spark, lake, "player_deals")
    where, args = _where(table)
    counts = {
        r.player_key: r.asDict() for r in spark.sql(COUNTS.format(where=where), args).collect()
    }
    names = {r.player_key: r.player for r in spark.sql(NAMES).collect()}
    nets: dict[str, Fraction] = {}
    biggest: dict[str, Fraction] = {}
    for r in spark.sql(MONEY.format(where=where), args).collect():
        nets[r.player_key] = nets.get(r.player_key, Fraction(0)) + Fraction(r.net_t, r.den)
        if r.biggest_t is not None:
            big = Fraction(r.biggest_t, r.den)
            biggest[r.player_key] = max(biggest.get(r.player_key, big), big)
    out = []
    for key, c in counts.items():
        row = {"player_key": key, "player": names.get(key, key), **c}
        row["net"] = amount_text(nets[key])
        row["net_per_deal"] = amount_text(nets[key] / c["deals"])
        big = biggest.get(key)
        row["biggest_pot_won"] = None if big is None else amount_text(big)
        for rate, num, over in RATES:
            n = c[over] or 0
            row[f"{rate}_n"] = n
            row[rate] = (c[num] or 0) / n if n else None
        out.append(row)
    return sorted(out, key=lambda r: (-Fraction(r["net"]), r["player_key"]))


def decision_counts(spark: Any, lake: str, table: str | None = None) -> list[dict[str, Any]]:
    """Per player and action (look, bet, see, fold, concede, retain, keep, throw): the decisions
    in force, those made blind and those in deals the player won."""
    _view(spark, lake, "decisions")
    where, args = _where(table)
    rows = [r.asDict() for r in spark.sql(DECISIONS.format(where=where), args).collect()]
    return sorted(rows, key=lambda r: (r["player_key"], r["action"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lake", help="the folder brag analytics export --parquet wrote")
    parser.add_argument("--table", help="one table's sessions only (case aside)")
    parser.add_argument("--out", help="also write player_stats/ and decisions/ here as Parquet")
    args = parser.parse_args(argv)
    # stdout is JSON Lines and nothing else: spark-submit pipes this driver's stderr into its own
    # stdout, so a library's Python warning (PySpark's FutureWarning about pandas) would be a line
    # of it; they are silenced. Spark's own log (log4j) is the JVM's stderr, cut to errors.
    warnings.simplefilter("ignore")
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("bragbook-lake").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    try:
        stats = player_stats(spark, args.lake, args.table)
        decisions = decision_counts(spark, args.lake, args.table)
        for r in stats:
            print(json.dumps({"player_stats": r}, ensure_ascii=False))
        for r in decisions:
            print(json.dumps({"decisions": r}, ensure_ascii=False))
        if args.out:
            for name, rows in (("player_stats", stats), ("decisions", decisions)):
                spark.createDataFrame(rows).write.mode("overwrite").parquet(f"{args.out}/{name}")
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
