#!/usr/bin/env python3
"""The write-heavy row of bench/run: purchases created and walked to POSTED_INTENT by
concurrent scripted kiosks against one served sandbox.

    bench/kiosk-load.py DECK ENVIRONMENT DATABASE KIOSKS SESSIONS_PER_KIOSK

ENVIRONMENT is a deck environment whose every service is the served sandbox (bench/run adds one
with `deck env add bench --sandbox URL`).

Adds one store per kiosk to the (private) database, then starts at the same time one feeder
(`deck run` of `sandbox trigger purchase` lines, one process on one connection) and the kiosks
(`deck kiosk run --store … --sessions N --rating 5 --approve --json`, no handoff or thank-you
pause). Prints one JSON line: sessions, seconds, sessions per second, and the checks: every
purchase reached POSTED_INTENT, no kiosk reported a session twice or an error, and the kiosks'
sessions are exactly the purchases created.
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time


def main():
    deck, environment, database, kiosks, per_kiosk = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    stores = [f"store_bench_{index}" for index in range(kiosks)]
    with sqlite3.connect(database, timeout=30) as db:
        for store in stores:
            db.execute(
                "INSERT OR IGNORE INTO kiosk_stores (public_id, name, review_url, created_at) VALUES (?, ?, ?, ?)",
                (store, f"Bench {store}", f"https://example.com/review/{store}", "2026-01-01T00:00:00Z"),
            )
    env = dict(os.environ, DECK_ENV=environment)
    with tempfile.NamedTemporaryFile("w", suffix=".deck", delete=False) as script:
        for _ in range(per_kiosk):
            for store in stores:
                script.write(f"sandbox trigger purchase --store {store} --json\n")
    started = time.monotonic()
    feeder = subprocess.Popen([deck, "run", script.name], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    runs = [
        subprocess.Popen(
            [deck, "kiosk", "run", "--store", store, "--sessions", str(per_kiosk), "--rating", "5", "--approve",
             "--poll-interval", "0.05", "--handoff-timeout", "0", "--thank-you", "0", "--json"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for store in stores
    ]
    created_out, feeder_err = feeder.communicate(timeout=600)
    outputs = [run.communicate(timeout=600) for run in runs]
    seconds = time.monotonic() - started
    os.unlink(script.name)

    created = [json.loads(line)["publicId"] for line in created_out.decode().splitlines() if line.strip()]
    reports = [json.loads(line) for out, _ in outputs for line in out.decode().splitlines() if line.strip()]
    reported = [report["publicId"] for report in reports]
    errors = [report["error"] for report in reports if report.get("error")]
    errors += [err.decode().strip() for (_, err), run in zip(outputs, runs) if run.returncode != 0]
    if feeder.returncode != 0:
        errors.append("feeder: " + feeder_err.decode().strip())
    with sqlite3.connect(database, timeout=30) as db:
        marks = ",".join("?" * len(stores))
        statuses = dict(db.execute(
            f"SELECT status, count(*) FROM kiosk_review_sessions WHERE store_public_id IN ({marks}) GROUP BY status",
            stores).fetchall())
    total = kiosks * per_kiosk
    lost = len(set(created) - set(reported))
    twice = len(reported) - len(set(reported))
    ok = (len(created) == total and lost == 0 and twice == 0 and not errors
          and set(reported) == set(created) and statuses == {"POSTED_INTENT": total})
    print(json.dumps({
        "kiosks": kiosks, "sessions": len(reported), "created": len(created), "seconds": round(seconds, 3),
        "sessions_per_second": round(len(reported) / seconds, 1), "lost": lost, "processed_twice": twice,
        "errors": errors[:5], "statuses": statuses, "ok": ok,
    }))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
