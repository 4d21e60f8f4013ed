"""`deck qa run --report html`: a small suite with a passing and a failing scenario, run against
`deck sandbox serve`, its report opened from the file in Chromium with the network off. What a
reader sees: the summary, the failure first and open with its rerun command, the expectation
that broke and the output it checked, a hostile title shown as text, and nothing loaded."""

import os

from selenium.webdriver.common.by import By

import browser
import deck as decklib

SUITE = """module: brokerage
scenarios:
  - id: finds-keller
    title: A search finds Keller Williams
    tags: [readonly]
    steps:
      - run: brokerage search keller --json
        expect:
          jq: ['length > 0', {expr: '.[0].name | test("keller"; "i")', equals: true}]
  - id: wrong-name
    title: <img src=x onerror=document.title='owned'> expects Nobody Realty
    tags: [readonly]
    steps:
      - run: brokerage search keller --json
        expect:
          jq: [{expr: '.[0].name', equals: Nobody Realty}]
      - run: brokerage search compass --json
"""


def test_the_html_report_reads_without_network(driver, screenshots):
    served = decklib.Served()
    try:
        client = served.deck()
        suite = os.path.join(client.home, "suite.yaml")
        with open(suite, "w") as file:
            file.write(SUITE)
        report = os.path.join(client.home, "report.html")
        result = client.run("qa", "run", suite, "--report", "html", "--out", report, check=False)
        assert result.returncode == 1, f"{result.stdout}\n{result.stderr}"
        with open(report) as file:
            html = file.read()
        for needle in ["<script", "<link", "http://", "https://"]:
            assert needle not in html, needle

        # No network at all while the page is open: anything it tried to load would fail and log.
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0})
        driver.get("file://" + report)
        assert browser.console_errors(driver) == []
        assert driver.title.startswith("deck qa: 1 passed, 1 failed"), driver.title
        summary = driver.find_element(By.CSS_SELECTOR, "header.summary").text
        assert "1 passed, 1 failed of 2 scenarios" in summary, summary

        sections = driver.find_elements(By.CSS_SELECTOR, "section")
        assert [section.get_attribute("id") for section in sections] == ["failures", "passed"]
        failure = sections[0].find_element(By.CSS_SELECTOR, "details.scenario")
        assert failure.get_attribute("open") is not None
        heading = failure.find_element(By.CSS_SELECTOR, "summary").text
        assert "FAILED" in heading and "wrong-name" in heading, heading
        # The title is text: no element was made of it, and its handler never ran.
        assert "<img src=x onerror=document.title='owned'>" in heading, heading
        assert failure.find_elements(By.TAG_NAME, "img") == []
        assert driver.title != "owned"
        rerun = failure.find_element(By.CSS_SELECTOR, ".rerun code").text
        assert rerun == f"deck qa run {suite} --env local --id wrong-name", rerun
        broke = failure.find_element(By.CSS_SELECTOR, ".expectations .broke").text
        assert "jq .[0].name equals \"Nobody Realty\"" in broke, broke
        problem = failure.find_element(By.CSS_SELECTOR, ".problem").text
        assert "stdout, as checked:" in problem and "Keller" in problem, problem
        steps = failure.find_elements(By.CSS_SELECTOR, "li.step")
        assert [step.get_attribute("class") for step in steps] == ["step failed", "step skipped"]
        assert "exit code 0" in steps[0].find_element(By.CSS_SELECTOR, ".facts").text
        assert "Keller" in steps[0].find_element(By.CSS_SELECTOR, "details.stdout pre").text

        passed = sections[1].find_element(By.CSS_SELECTOR, "details.scenario")
        assert passed.get_attribute("open") is None
        assert "finds-keller" in passed.find_element(By.CSS_SELECTOR, "summary").text
        browser.screenshot(driver, screenshots, "qa-report")
    finally:
        served.close()
