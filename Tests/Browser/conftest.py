"""Fixtures: a sandbox (served, or the default environment's local one), a deck client on it,
and headless Chromium at a desktop or phone size. See Tests/Browser/run."""

import os
import shutil

import pytest

import browser
import deck as decklib

ROOT = decklib.ROOT
# Where screenshots go: .build/browser/screenshots, or docs/screenshots with --update-screenshots
# (the README shows those; the review text is picked at random, so every run's PNGs differ).
FAILURES = os.path.join(ROOT, ".build", "browser", "failures")


def pytest_addoption(parser):
    parser.addoption(
        "--update-screenshots", action="store_true",
        help="write the screenshots to docs/screenshots (shown in the README) instead of .build/browser")


@pytest.fixture(scope="session")
def screenshots(request):
    if request.config.getoption("--update-screenshots"):
        return os.path.join(ROOT, "docs", "screenshots")
    return os.path.join(ROOT, ".build", "browser", "screenshots")


def pytest_sessionstart(session):
    # Fail (not skip) at once when what the tests need is missing.
    try:
        browser.chromium_paths()
    except RuntimeError as error:
        raise pytest.UsageError(str(error))
    if not os.access(decklib.BINARY, os.X_OK):
        raise pytest.UsageError(f"no deck binary at {decklib.BINARY}: run `swift build` first, or set DECK_BINARY")
    sandbox = os.path.join(os.path.dirname(decklib.BINARY), "deck-sandbox")
    if not os.access(sandbox, os.X_OK):
        raise pytest.UsageError(f"no deck-sandbox beside deck ({sandbox}): run `swift build` first")
    shutil.rmtree(FAILURES, ignore_errors=True)


@pytest.fixture(params=["serve", "local"], ids=["serve", "local"])
def sandbox(request):
    """Each test runs twice: against `deck sandbox serve`, and against the local sandbox the
    default environment starts on demand."""
    target = decklib.Served() if request.param == "serve" else decklib.LocalSandbox()
    yield target
    target.close()


@pytest.fixture
def driver(request):
    chromium = browser.start()
    request.node.chromium = chromium
    yield chromium
    chromium.quit()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failure, keep what the browser showed: .build/browser/failures/<test>.png and .html."""
    outcome = yield
    report = outcome.get_result()
    chromium = getattr(item, "chromium", None)
    if report.when == "call" and report.failed and chromium is not None:
        name = item.nodeid.split("::")[-1].replace("/", "_").replace("[", "-").replace("]", "")
        os.makedirs(FAILURES, exist_ok=True)
        try:
            chromium.save_screenshot(os.path.join(FAILURES, name + ".png"))
            with open(os.path.join(FAILURES, name + ".html"), "w") as file:
                file.write(f"<!-- {chromium.current_url} -->\n{chromium.page_source}")
            report.sections.append(("browser", f"screenshot and HTML in {FAILURES}/{name}.*"))
        except Exception as error:  # the browser itself may be what failed
            report.sections.append(("browser", f"could not save the page: {error}"))
