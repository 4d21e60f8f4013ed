#!/usr/bin/env python3
"""The write-heavy rows of bench/run: purchases created and walked to POSTED_INTENT by
concurrent scripted kiosks against one served sandbox, or several serving one database.

    bench/kiosk-load.py DECK ENVIRONMENT[,ENVIRONMENT…] DATABASE KIOSKS SESSIONS_PER_KIOSK [STORE_PREFIX]

ENVIRONMENT is a deck environment whose every service is a served sandbox (bench/run adds one
with `deck env add NAME --sandbox URL`). With several, comma-separated (instances serving one
PostgreSQL database), kiosk i uses environment i % n, and each environment has a feeder of its
own for its kiosks' stores, so that every instance carries an equal share of the work. DATABASE is the
servers' database: a SQLite file (read with python's sqlite3) or a postgres:// URL (read with
PostgreSQL's psql, found as scripts/pg-cluster finds it; the password, if the URL has one, goes
to psql in PGPASSWORD). STORE_PREFIX (default store_bench; [a-z0-9_]+) names the stores, so
that two runs against one database check only their own sessions.

Adds one store per kiosk to the (private) database, then starts at the same time the feeders
(`deck run` of `sandbox trigger purchase` lines, one process on one connection each) and the kiosks
(`deck kiosk run --store … --sessions N --rating 5 --approve --json`, no handoff or thank-you
pause). Prints one JSON line: sessions, seconds, sessions per second, and the checks: every
purchase reached POSTED_INTENT, no kiosk reported a session twice or an error, and the kiosks'
sessions are exactly the purchases created.
"""
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse


def psql_binary():
    """PostgreSQL's psql, from the directory scripts/pg-cluster takes its binaries from: initdb's
    (through symlinks) if initdb is on PATH, else the newest /usr/lib/postgresql/*/bin."""
    initdb = shutil.which("initdb")
    if initdb:
        directory = os.path.dirname(os.path.realpath(initdb))
    else:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                       key=lambda path: [int(part) for part in re.findall(r"\d+", path)])
        if not found:
            sys.exit("kiosk-load: PostgreSQL is not installed (apt-get install postgresql)")
        directory = found[-1]
    path = os.path.join(directory, "psql")
    return path if os.access(path, os.X_OK) else (shutil.which("psql") or path)


def quote(text):
    return "'" + text.replace("'", "''") + "'"


class SQLite:
    def __init__(self, path):
        self.path = path

    def add_stores(self, stores):
        with sqlite3.connect(self.path, timeout=30) as db:
            for store in stores:
                db.execute(
                    "INSERT OR IGNORE INTO kiosk_stores (public_id, name, review_url, created_at) VALUES (?, ?, ?, ?)",
                    (store, f"Bench {store}", f"https://example.com/review/{store}", "2026-01-01T00:00:00Z"),
                )

    def statuses(self, stores):
        with sqlite3.connect(self.path, timeout=30) as db:
            marks = ",".join("?" * len(stores))
            return dict(db.execute(
                f"SELECT status, count(*) FROM kiosk_review_sessions WHERE store_public_id IN ({marks}) GROUP BY status",
                stores).fetchall())


class Postgres:
    """Through psql (no PyPI driver): one psql process per statement batch, SQL on stdin."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        userinfo, _, hostport = parts.netloc.rpartition("@")
        user, _, password = userinfo.partition(":")
        self.env = dict(os.environ)
        if password:
            self.env["PGPASSWORD"] = urllib.parse.unquote(password)
        netloc = f"{user}@{hostport}" if user else hostport
        self.conninfo = urllib.parse.urlunsplit(("postgresql", netloc, parts.path, parts.query, ""))
        self.psql = psql_binary()

    def run(self, sql):
        done = subprocess.run(
            [self.psql, "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", self.conninfo],
            input=sql, env=self.env, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            sys.exit(f"kiosk-load: psql failed: {done.stderr.strip()}")
        return [line.split("\t") for line in done.stdout.splitlines() if line.strip()]

    def add_stores(self, stores):
        values = ", ".join(
            f"({quote(store)}, {quote('Bench ' + store)}, {quote('https://example.com/review/' + store)}, "
            f"'2026-01-01T00:00:00Z')" for store in stores)
        self.run(f"INSERT INTO kiosk_stores (public_id, name, review_url, created_at) VALUES {values} "
                 "ON CONFLICT DO NOTHING;\n")

    def statuses(self, stores):
        names = ", ".join(quote(store) for store in stores)
        rows = self.run(f"SELECT status, count(*) FROM kiosk_review_sessions WHERE store_public_id IN ({names}) "
                        "GROUP BY status;\n")
        return {status: int(count) for status, count in rows}


def main():
    if len(sys.argv) not in (6, 7):
        sys.exit("usage: bench/kiosk-load.py DECK ENVIRONMENT[,ENVIRONMENT…] DATABASE KIOSKS SESSIONS_PER_KIOSK "
                 "[STORE_PREFIX]")
    deck, database, kiosks, per_kiosk = sys.argv[1], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    environments = [name for name in sys.argv[2].split(",") if name]
    prefix = sys.argv[6] if len(sys.argv) == 7 else "store_bench"
    if not re.fullmatch(r"[a-z0-9_]+", prefix):
        sys.exit("kiosk-load: STORE_PREFIX is [a-z0-9_]+")
    db = Postgres(database) if database.startswith(("postgres://", "postgresql://")) else SQLite(database)
    stores = [f"{prefix}_{index}" for index in range(kiosks)]
    db.add_stores(stores)
    scripts = []
    for slot, environment in enumerate(environments):
        with tempfile.NamedTemporaryFile("w", suffix=".deck", delete=False) as script:
            for _ in range(per_kiosk):
                for store in stores[slot::len(environments)]:
                    script.write(f"sandbox trigger purchase --store {store} --json\n")
        scripts.append((environment, script.name))
    started = time.monotonic()
    feeders = [subprocess.Popen([deck, "run", path], env=dict(os.environ, DECK_ENV=environment),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
               for environment, path in scripts]
    runs = [
        subprocess.Popen(
            [deck, "kiosk", "run", "--store", store, "--sessions", str(per_kiosk), "--rating", "5", "--approve",
             "--poll-interval", "0.05", "--handoff-timeout", "0", "--thank-you", "0", "--json"],
            env=dict(os.environ, DECK_ENV=environments[index % len(environments)]),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for index, store in enumerate(stores)
    ]
    fed = [feeder.communicate(timeout=600) for feeder in feeders]
    outputs = [run.communicate(timeout=600) for run in runs]
    seconds = time.monotonic() - started
    for _, path in scripts:
        os.unlink(path)

    created = [json.loads(line)["publicId"] for out, _ in fed for line in out.decode().splitlines() if line.strip()]
    reports = [json.loads(line) for out, _ in outputs for line in out.decode().splitlines() if line.strip()]
    reported = [report["publicId"] for report in reports]
    errors = [report["error"] for report in reports if report.get("error")]
    errors += [err.decode().strip() for (_, err), run in zip(outputs, runs) if run.returncode != 0]
    errors += ["feeder: " + err.decode().strip() for (_, err), feeder in zip(fed, feeders) if feeder.returncode != 0]
    statuses = db.statuses(stores)
    total = kiosks * per_kiosk
    lost = len(set(created) - set(reported))
    twice = len(reported) - len(set(reported))
    ok = (len(created) == total and lost == 0 and twice == 0 and not errors
          and set(reported) == set(created) and statuses == {"POSTED_INTENT": total})
    print(json.dumps({
        "kiosks": kiosks, "instances": len(environments), "sessions": len(reported), "created": len(created),
        "seconds": round(seconds, 3), "sessions_per_second": round(len(reported) / seconds, 1), "lost": lost,
        "processed_twice": twice, "errors": errors[:5], "statuses": statuses, "ok": ok,
    }))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
