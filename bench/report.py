#!/usr/bin/env python3
"""Reads the raw results of bench/run, prints the summary table and writes summary.json.

    bench/report.py RESULTS_DIR [--check BASELINE_JSON]

With --check, compares every row with the committed baseline and exits 1 when one is more than
25% worse (a higher ratio, time or memory; a lower throughput share or rate).
"""
import json
import os
import sys

TOLERANCE = 0.25
# Goals a row must pass strictly (value > goal): two instances must beat one, not tie.
STRICT = {"pg_kiosk_two_vs_one"}
# Rows whose values sit near zero (memory growth: -0.8 to 1.2 MB between runs of one binary)
# also get this much absolute slack, so that noise around zero is not a regression.
SLACK = {"MB": 1.0}


def regressed(old, new, better, unit):
    """Whether `new` is more than TOLERANCE worse than the baseline `old` (by at least the unit's
    SLACK). Measured from the size of `old`, so that a negative baseline is not turned around."""
    allowed = max(abs(old) * TOLERANCE, SLACK.get(unit, 0.0))
    return new > old + allowed if better == "lower" else new < old - allowed


def load(directory, name):
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        return None
    with open(path) as file:
        return json.load(file)


def failures(wrk):
    """What went wrong in a search row's wrk run, for its label ("" when nothing did): requests
    wrk gave up on (its --timeout) or lost, and answers that were not 2xx or 3xx."""
    parts = []
    if wrk["errors"]:
        parts.append(f"{wrk['errors']} timeouts or socket errors")
    if wrk["status_errors"]:
        parts.append(f"{wrk['status_errors']} error statuses")
    return f"; {', '.join(parts)} of {wrk['requests']} requests" if parts else ""


def rows(directory):
    """(key, label, value, unit, better, goal) for every row whose raw result exists."""
    found = []
    oneshot = load(directory, "oneshot.json")
    if oneshot:
        results = {r["command"]: r for r in oneshot["results"]}
        # Medians: on this virtual machine a few slow runs in 30 pull a mean by 10-20%.
        curl = results["curl"]["median"]
        for key, name, goal in [
            ("oneshot_local", "deck --env local", 2.0),
            ("oneshot_default", "deck default (local sandbox running)", 2.0),
            ("help", "deck --help", 1.5),
            ("completion_static", "completion static", 1.5),
            ("completion_dynamic", "completion dynamic", 2.0),
        ]:
            if name in results:
                median = results[name]["median"]
                label = f"{name} ({median * 1000:.1f} ms; curl {curl * 1000:.1f} ms)"
                found.append((key, label, median / curl, "x curl", "lower", goal))
    script = load(directory, "script.json")
    if script:
        results = {r["command"]: r for r in script["results"]}
        deck, curl = results["deck run 1000"]["median"], results["curl 1000 (keep-alive)"]["median"]
        label = f"script mode, 1000 searches ({deck * 1000:.0f} ms; curl -K {curl * 1000:.0f} ms)"
        found.append(("script_1000", label, deck / curl, "x curl", "lower", 3.5))
    first = load(directory, "first.json")
    if first:
        label = (f"first command, local sandbox not running (then {first['second_s'] * 1000:.0f} ms; "
                 f"the server's start {first['server_start_s'] * 1000:.0f} ms)")
        found.append(("first_command_s", label, first["first_s"], "s", "lower", 0.5))
    sizes = load(directory, "sizes.json")
    if sizes:
        found.append(("size_deck_mb", "deck, stripped", sizes["deck"], "MB", "lower", None))
        found.append(("size_sandbox_mb", "deck-sandbox, stripped", sizes["deck-sandbox"], "MB", "lower", None))
    unreachable = load(directory, "unreachable.json")
    if unreachable:
        label = f"--env local, nothing listening (exit {unreachable['exit']}, goal exit 69)"
        found.append(("unreachable_s", label, unreachable["seconds"], "s", "lower", 1.0))
    search, trivial = load(directory, "wrk-search.json"), load(directory, "wrk-trivial.json")
    if search and trivial:
        label = (f"search mix, 100k brokerages: {search['rps']:.0f} req/s, p50 {search['p50_ms']:.2f} ms "
                 f"(trivial route {trivial['rps']:.0f} req/s, p50 {trivial['p50_ms']:.2f} ms{failures(search)})")
        found.append(("search_share", label, search["rps"] / trivial["rps"], "of trivial", "higher", 0.5))
        label = f"search mix p99 at 32 connections (trivial route p99 {trivial['p99_ms']:.2f} ms)"
        found.append(("search_p99_ms", label, search["p99_ms"], "ms", "lower", 10.0))
    pg_search = load(directory, "wrk-pg-search.json")
    if pg_search and search:
        # The same wrk run against one PostgreSQL instance with the same brokerages, which never
        # caches responses (SQLite's typeahead answers are cached while its WAL is unchanged).
        label = (f"search mix on PostgreSQL: {pg_search['rps']:.0f} req/s, p50 {pg_search['p50_ms']:.2f} ms "
                 f"(SQLite {search['rps']:.0f} req/s, same run{failures(pg_search)})")
        found.append(("pg_search_share", label, pg_search["rps"] / search["rps"], "of SQLite", "higher", 0.5))
        lost = failures(pg_search)
        label = (f"search mix on PostgreSQL, p99 at 32 connections (SQLite p99 {search['p99_ms']:.2f} ms"
                 f"{lost + ', not in the p99' if lost else ''})")
        found.append(("pg_search_p99_ms", label, pg_search["p99_ms"], "ms", "lower", None))
    for key, name, where in [("kiosk_sessions_per_s", "kiosk.json", ""),
                             ("pg_kiosk_sessions_per_s", "kiosk-pg.json", ", PostgreSQL, one instance"),
                             ("pg2_kiosk_sessions_per_s", "kiosk-pg2.json", ", PostgreSQL, two instances")]:
        kiosk = load(directory, name)
        if kiosk:
            verdict = "none lost or twice" if kiosk["ok"] else f"CHECK FAILED: {kiosk}"
            label = f"{kiosk['kiosks']} kiosks{where}, {kiosk['sessions']} purchases to POSTED_INTENT ({verdict})"
            found.append((key, label, kiosk["sessions_per_second"], "sessions/s", "higher", None))
    one, two = load(directory, "kiosk-pg.json"), load(directory, "kiosk-pg2.json")
    if one and two and one["sessions_per_second"]:
        label = (f"kiosk sessions/s, two PostgreSQL instances of one database ({two['sessions_per_second']:.1f}) "
                 f"vs one ({one['sessions_per_second']:.1f})")
        found.append(("pg_kiosk_two_vs_one", label, two["sessions_per_second"] / one["sessions_per_second"],
                      "x one", "higher", 1.0))
    scaling = load(directory, "scaling.json")
    if scaling and scaling["cap_percent"]:
        where = (f"capped at {scaling['cap_percent']}% of a core each ({scaling['method']}), "
                 f"median of {scaling['rounds']}{'' if scaling['ok'] else '; CHECK FAILED'}")
        found.append(("pg_capped1_sessions_per_s", f"8 kiosks, one PostgreSQL instance {where}",
                      scaling["one_sessions_per_s"], "sessions/s", "higher", None))
        found.append(("pg_capped2_sessions_per_s", f"8 kiosks, two PostgreSQL instances {where}",
                      scaling["two_sessions_per_s"], "sessions/s", "higher", None))
        found.append(("pg_capped_two_vs_one", "capped instances (two simulated hosts): two vs one, same run",
                      scaling["two_vs_one"], "x one", "higher", 1.6))
    memory = load(directory, "memory.json")
    if memory:
        for key, label, goal in [
            ("rss_oneshot_mb", "peak RSS, one-shot --env local search", None),
            ("rss_serve_mb", "peak RSS, deck sandbox serve under the wrk runs", None),
            ("rss_script_growth_mb", "RSS growth, script mode 10,000 lines vs 100", 5.0),
        ]:
            if key in memory:
                found.append((key, label, memory[key], "MB", "lower", goal))
    return found


def met(value, better, goal, strict=False):
    if goal is None:
        return ""
    if better == "lower":
        passed = value < goal if strict else value <= goal
    else:
        passed = value > goal if strict else value >= goal
    return "met" if passed else "MISSED"


def goal_text(better, goal, strict=False):
    if goal is None:
        return ""
    return ("<" if better == "lower" else ">") + ("" if strict else "=") + f" {goal:g}"


def main():
    directory = sys.argv[1]
    baseline_path = sys.argv[sys.argv.index("--check") + 1] if "--check" in sys.argv else None
    table = rows(directory)
    summary = {key: {"value": round(value, 4), "unit": unit, "better": better, "goal": goal}
               for key, _, value, unit, better, goal in table}
    with open(os.path.join(directory, "summary.json"), "w") as file:
        json.dump(summary, file, indent=2, sort_keys=True)
        file.write("\n")
    kiosks = [load(directory, name) for name in ("kiosk.json", "kiosk-pg.json", "kiosk-pg2.json", "scaling.json")]

    print()
    print(f"{'row':<24} {'value':>9} {'unit':<11} {'goal':>7}  {'':<6}  what")
    for key, label, value, unit, better, goal in table:
        strict = key in STRICT
        print(f"{key:<24} {value:>9.3f} {unit:<11} {goal_text(better, goal, strict):>7}  "
              f"{met(value, better, goal, strict):<6}  {label}")

    failed = any(kiosk and not kiosk["ok"] for kiosk in kiosks)
    if baseline_path:
        with open(baseline_path) as file:
            baseline = json.load(file)
        print(f"\n--check against {baseline_path} (a row fails when more than {TOLERANCE:.0%} worse):")
        for key, row in sorted(baseline.items()):
            if key not in summary:
                print(f"  {key:<24} missing from this run: FAIL")
                failed = True
                continue
            old, new = row["value"], summary[key]["value"]
            worse = regressed(old, new, row["better"], row["unit"])
            change = (new - old) / abs(old) if old else 0.0
            print(f"  {key:<24} baseline {old:>9.3f}  now {new:>9.3f}  ({change:+.0%})  {'FAIL' if worse else 'ok'}")
            failed = failed or worse
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
