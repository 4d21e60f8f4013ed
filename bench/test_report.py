"""Tests of bench/report.py's regression rule (run by scripts/test: python3 bench/test_report.py)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import regressed  # noqa: E402


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


if __name__ == "__main__":
    unittest.main()
