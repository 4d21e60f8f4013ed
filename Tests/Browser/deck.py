"""The real `deck` and `deck sandbox serve`, each with a private HOME (no mocks).

Two ways to reach a sandbox, as the Swift end-to-end tests do (Tests/EndToEndTests/Harness.swift):
- `Served`: `deck sandbox serve --port 0 --db PATH` in the foreground; deck is pointed at it with
  the `local` environment, the DECK_<SERVICE>_URL overrides and DECK_SANDBOX_ADMIN_TOKEN.
- `LocalSandbox`: the default environment (`sandbox`), whose server deck starts on demand (what a
  user clicks); `deck sandbox stop` stops it at the end.
"""

import json
import os
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("DECK_BINARY") or os.path.join(ROOT, ".build", "debug", "deck")
SERVICES = ["FLYR", "KIOSK", "RECRUITING", "NUDGE", "AUTH", "GEOCODER"]
TIMEOUT = 60


class CommandFailed(AssertionError):
    pass


def private_environment(home):
    """HOME and every XDG directory inside `home`; nothing of the caller's deck settings."""
    return {
        "HOME": home,
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": os.path.join(home, "config"),
        "XDG_STATE_HOME": os.path.join(home, "state"),
        "XDG_DATA_HOME": os.path.join(home, "data"),
        "XDG_RUNTIME_DIR": os.path.join(home, "run"),
    }


class Deck:
    """The deck client with its own HOME; `environment` says which sandbox it talks to."""

    def __init__(self, home, environment):
        self.home = home
        self.environment = environment

    def run(self, *arguments, stdin=None, check=True, timeout=TIMEOUT):
        result = subprocess.run(
            [BINARY, *arguments], input=stdin, capture_output=True, text=True, env=self.environment,
            cwd=self.home, timeout=timeout)
        if check and result.returncode != 0:
            raise CommandFailed(
                f"deck {' '.join(arguments)} exited {result.returncode}\nstdout: {result.stdout}\n"
                f"stderr: {result.stderr}")
        return result

    def json(self, *arguments):
        result = self.run(*arguments, "--json")
        try:
            return json.loads(result.stdout)
        except json.JSONDecodeError as error:
            raise CommandFailed(f"deck {' '.join(arguments)} --json printed no JSON ({error}): {result.stdout!r}")

    def start(self, *arguments):
        """Starts deck in the background (for `subscribe --wait`)."""
        return subprocess.Popen(
            [BINARY, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.environment,
            cwd=self.home)

    # The flows the pages belong to.

    def sign_in_demo_owner(self):
        self.run("auth", "login", "--email", "owner@sandbox.test", "--password-stdin", stdin="sandbox\n")

    def onboard(self, workspace_name):
        result = self.run(
            "workspace", "onboard", "--first-name", "Ada", "--last-name", "Lovelace", "--workspace-name",
            workspace_name, "--industry", "HVAC", "--use-case", "solo")
        assert "route  subscribe" in result.stdout, f"onboard: {result.stdout}"

    def has_access(self):
        return self.json("workspace", "access")["hasAccess"]

    def approved_review(self, rating, items, total="45.99", store="store_demo"):
        """A session bought at `store`, rated and approved at a kiosk paired with it; returns
        (`kiosk approve --json`, the session as `sandbox inspect session` shows it)."""
        self.pair(store)
        session_id = self.purchase(store, items, total)
        self.json("kiosk", "next")
        self.json("kiosk", "rate", str(rating))
        approved = self.json("kiosk", "approve")
        assert approved["screen"] == "handoff", approved
        return approved, self.json("sandbox", "inspect", "session", session_id)

    def pair(self, store):
        status = self.json("kiosk", "status")
        if status.get("storePublicId") != store:
            self.json("kiosk", "pair", store)

    def purchase(self, store, items, total):
        arguments = ["sandbox", "trigger", "purchase", "--store", store, "--total", total]
        for item in items:
            arguments += ["--item", item]
        session = self.json(*arguments)
        assert session["status"] == "PENDING", session
        return session["publicId"]


class Served:
    """`deck sandbox serve --port 0` on a temporary database, and a deck pointed at it."""

    name = "deck sandbox serve"
    screenshots = True  # the README's pictures come from this run

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="deck-browser-serve-")
        environment = private_environment(self.directory)
        # Files, not pipes: a server whose log nobody reads must never block on a full pipe.
        self.stdout_path = os.path.join(self.directory, "stdout")
        self.stderr_path = os.path.join(self.directory, "stderr")
        with open(self.stdout_path, "w") as stdout, open(self.stderr_path, "w") as stderr:
            self.process = subprocess.Popen(
                [BINARY, "sandbox", "serve", "--port", "0", "--db", os.path.join(self.directory, "sandbox.sqlite")],
                stdout=stdout, stderr=stderr, env=environment, cwd=self.directory)
        deadline = time.monotonic() + TIMEOUT
        lines = []
        while time.monotonic() < deadline and self.process.poll() is None:
            with open(self.stdout_path) as stdout:
                lines = stdout.read().splitlines()
            if len(lines) >= 3:
                break
            time.sleep(0.05)
        if len(lines) < 3 or not (lines[0].startswith("http://127.0.0.1:") and lines[1].startswith("sandbox-admin-token=")):
            self.process.kill()
            self.process.wait()
            with open(self.stderr_path) as stderr:
                output = stderr.read()
            shutil.rmtree(self.directory, ignore_errors=True)
            raise RuntimeError(f"deck sandbox serve did not start: stdout {lines}, stderr: {output}")
        self.url = lines[0]
        self.admin_token = lines[1].split("=", 1)[1]
        self.homes = []

    def deck(self):
        home = tempfile.mkdtemp(prefix="deck-browser-home-")
        self.homes.append(home)
        environment = private_environment(home)
        environment["DECK_ENV"] = "local"
        for service in SERVICES:
            environment[f"DECK_{service}_URL"] = self.url
        environment["DECK_SANDBOX_ADMIN_TOKEN"] = self.admin_token
        return Deck(home, environment)

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for path in [self.directory, *self.homes]:
            shutil.rmtree(path, ignore_errors=True)


class LocalSandbox:
    """The default environment: no overrides; deck starts its local sandbox on the first command."""

    name = "the default environment's local sandbox"
    screenshots = False

    def __init__(self):
        self.home = tempfile.mkdtemp(prefix="deck-browser-local-")
        self.client = Deck(self.home, private_environment(self.home))
        try:
            status = self.client.json("sandbox", "status")
            local = status.get("localSandbox") or {}
            if not str(local.get("url", "")).startswith("http://127.0.0.1:"):
                raise RuntimeError(f"deck sandbox status: no local sandbox URL: {status}")
        except BaseException:
            self.close()  # a server may have started all the same
            raise
        self.url = local["url"]

    def deck(self):
        # One HOME: the local sandbox is found through its record in XDG_RUNTIME_DIR.
        return self.client

    def close(self):
        self.client.run("sandbox", "stop", check=False)
        shutil.rmtree(self.home, ignore_errors=True)


def wait_for(condition, timeout=15, interval=0.05, message="condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {message}")
        time.sleep(interval)
