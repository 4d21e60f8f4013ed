"""Tests of bench/report.py's regression rule (run by scripts/test: python3 bench/test_report.py)."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import STRICT, met, regressed, rows  # noqa: E402


class RegressedTests(unittest.TestCase):
    def test_ratios_fail_beyond_a_quarter_worse(self):
        self.assertFalse(regressed(2.0, 2.5, "lower", "x curl"))
        self.assertTrue(regressed(2.0, 2.51, "lower", "x curl"))
        self.assertFalse(regressed(2.0, 1.0, "lower", "x curl"))

    def test_throughput_fails_beyond_a_quarter_lower(self):
        self.assertFalse(regressed(0.8, 0.61, "higher", "of trivial"))
        self.assertTrue(regressed(0.8, 0.59, "higher", "of trivial"))

    def test_a_negative_baseline_is_not_turned_around(self):
        # The old rule failed every value above -1.0 MB against a -0.8 MB baseline.
        self.assertFalse(regressed(-0.8, 0.1, "lower", "MB"))
        self.assertTrue(regressed(-0.8, 0.3, "lower", "MB"))

    def test_memory_near_zero_gets_absolute_slack(self):
        self.assertFalse(regressed(0.7, 1.2, "lower", "MB"))
        self.assertTrue(regressed(0.7, 1.8, "lower", "MB"))
        self.assertTrue(regressed(40.0, 51.0, "lower", "MB"))


def wrk(rps, p99):
    return {"requests": int(rps * 10), "duration_us": 10_000_000, "rps": rps, "p50_ms": 1.0, "p99_ms": p99,
            "max_ms": p99 * 2, "errors": 0, "status_errors": 0}


def kiosk(rate, instances, ok=True):
    return {"kiosks": 8, "instances": instances, "sessions": 200, "created": 200, "seconds": 200 / rate,
            "sessions_per_second": rate, "lost": 0, "processed_twice": 0, "errors": [],
            "statuses": {"POSTED_INTENT": 200}, "ok": ok}


class PostgresRowTests(unittest.TestCase):
    """The PostgreSQL rows: search beside SQLite's in the same run, kiosks on one and two instances."""

    def table(self, files):
        with tempfile.TemporaryDirectory() as directory:
            for name, content in files.items():
                with open(os.path.join(directory, name), "w") as file:
                    json.dump(content, file)
            return {key: (value, unit, better, goal) for key, _, value, unit, better, goal in rows(directory)}

    def verdict(self, table, key):
        value, _, better, goal = table[key]
        return met(value, better, goal, key in STRICT)

    def files(self, pg_rps=3000.0, one=100.0, two=150.0):
        return {"wrk-search.json": wrk(5000.0, 2.0), "wrk-trivial.json": wrk(6000.0, 1.0),
                "wrk-pg-search.json": wrk(pg_rps, 7.5), "kiosk.json": kiosk(250.0, 1),
                "kiosk-pg.json": kiosk(one, 1), "kiosk-pg2.json": kiosk(two, 2)}

    def test_postgres_search_is_a_share_of_sqlite_with_its_p99(self):
        table = self.table(self.files(pg_rps=3000.0))
        self.assertAlmostEqual(table["pg_search_share"][0], 0.6)
        self.assertEqual(table["pg_search_share"][1:], ("of SQLite", "higher", 0.5))
        self.assertEqual(self.verdict(table, "pg_search_share"), "met")
        self.assertEqual(table["pg_search_p99_ms"][:3], (7.5, "ms", "lower"))
        self.assertEqual(self.verdict(self.table(self.files(pg_rps=2400.0)), "pg_search_share"), "MISSED")

    def test_two_instances_must_beat_one(self):
        table = self.table(self.files(one=100.0, two=150.0))
        self.assertEqual(table["pg_kiosk_sessions_per_s"][0], 100.0)
        self.assertEqual(table["pg2_kiosk_sessions_per_s"][0], 150.0)
        self.assertAlmostEqual(table["pg_kiosk_two_vs_one"][0], 1.5)
        self.assertEqual(self.verdict(table, "pg_kiosk_two_vs_one"), "met")
        # A tie is not beating one instance: the goal is strict.
        self.assertEqual(self.verdict(self.table(self.files(one=100.0, two=100.0)), "pg_kiosk_two_vs_one"), "MISSED")
        self.assertEqual(self.verdict(self.table(self.files(one=100.0, two=90.0)), "pg_kiosk_two_vs_one"), "MISSED")

    def test_rows_without_their_results_are_left_out(self):
        files = self.files()
        del files["wrk-pg-search.json"], files["kiosk-pg2.json"]
        table = self.table(files)
        self.assertNotIn("pg_search_share", table)
        self.assertNotIn("pg_kiosk_two_vs_one", table)
        self.assertIn("pg_kiosk_sessions_per_s", table)

    def test_capped_instances_two_must_reach_1_6_times_one(self):
        def scaling(one, two, cap=30):
            return {"method": "cgroup1", "cap_percent": cap, "rounds": 2, "one_sessions_per_s": one,
                    "two_sessions_per_s": two, "two_vs_one": round(two / one, 3), "ok": True}
        table = self.table(dict(self.files(), **{"scaling.json": scaling(10.0, 17.0)}))
        self.assertEqual(table["pg_capped1_sessions_per_s"][0], 10.0)
        self.assertEqual(table["pg_capped2_sessions_per_s"][0], 17.0)
        self.assertEqual(table["pg_capped_two_vs_one"], (1.7, "x one", "higher", 1.6))
        self.assertEqual(self.verdict(table, "pg_capped_two_vs_one"), "met")
        missed = self.table(dict(self.files(), **{"scaling.json": scaling(10.0, 15.0)}))
        self.assertEqual(self.verdict(missed, "pg_capped_two_vs_one"), "MISSED")
        # An uncapped smoke run (no control group) measures no scaling.
        uncapped = self.table(dict(self.files(), **{"scaling.json": scaling(10.0, 11.0, cap=0)}))
        self.assertNotIn("pg_capped_two_vs_one", uncapped)


if __name__ == "__main__":
    unittest.main()
