"""The hosted checkout page (`/__sandbox/checkout/…`), in Chromium at 1000x700: the link that
`deck workspace subscribe` prints, the Pay button, "Payment complete", and deck seeing the access."""

import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

import browser

PRICE = "USD 490.00 / year"


def test_pay_on_the_checkout_page_gives_access(sandbox, driver, screenshots):
    deck = sandbox.deck()
    deck.sign_in_demo_owner()
    deck.onboard("Ada Realty")
    assert deck.has_access() is False, "no access before subscribing"

    # `subscribe --wait`, started before the click: it prints the link, then waits for access.
    waiting = deck.start(
        "workspace", "subscribe", "--plan", "annual", "--currency", "USD", "--wait", "--wait-timeout", "90")
    try:
        url = waiting.stdout.readline().strip()
        assert url.startswith(sandbox.url + "/__sandbox/checkout/cs_test_"), (
            f"subscribe printed {url!r}, not a checkout link on {sandbox.url}; stderr: "
            f"{waiting.stderr.read() if waiting.poll() is not None else '(still running)'}")

        driver.get(url)
        assert driver.title == "FLYR checkout"
        assert driver.find_element(By.TAG_NAME, "h1").text == "Subscribe to FLYR Pro"
        body = driver.find_element(By.TAG_NAME, "body").text
        assert "Workspace: Ada Realty" in body, body
        assert f"Plan: {PRICE}" in body, body
        pay = driver.find_element(By.CSS_SELECTOR, "form button[type=submit]")
        assert pay.text == f"Pay {PRICE}"
        assert pay.is_displayed() and pay.is_enabled()
        form = driver.find_element(By.TAG_NAME, "form")
        assert form.get_attribute("method") == "post"
        assert form.get_attribute("action") == url, "the form posts back to the checkout session"
        browser.expect_accessible(driver)
        browser.expect_no_console_errors(driver)

        if sandbox.screenshots:
            browser.screenshot(driver, screenshots, "checkout-desktop")
        # The same page on a phone: laid out for its width, nothing to scroll sideways.
        browser.viewport(driver, browser.PHONE)
        driver.get(url)
        width, scroll_width = driver.execute_script(
            "return [window.innerWidth, document.documentElement.scrollWidth]")
        assert (width, scroll_width) == (390, 390), (
            f"on a 390 px phone the page is laid out {width} px wide ({scroll_width} px with overflow): "
            "is <meta name=viewport> missing?")
        if sandbox.screenshots:
            browser.screenshot(driver, screenshots, "checkout-phone")
        browser.viewport(driver, browser.DESKTOP)
        driver.get(url)

        assert waiting.poll() is None, "subscribe --wait is still waiting before the click"
        assert deck.has_access() is False, "no access before paying"

        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        WebDriverWait(driver, 15).until(
            expected_conditions.text_to_be_present_in_element((By.TAG_NAME, "h1"), "Payment complete"))
        assert driver.title == "Payment complete"
        assert driver.current_url == url
        body = driver.find_element(By.TAG_NAME, "body").text
        assert f"Ada Realty is now subscribed ({PRICE})." in body, body
        browser.expect_accessible(driver)
        browser.expect_no_console_errors(driver)
        if sandbox.screenshots:
            browser.screenshot(driver, screenshots, "checkout-paid-desktop")

        # subscribe --wait returns on its own once the payment is seen.
        try:
            stdout, stderr = waiting.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError("deck workspace subscribe --wait did not return within 30 s of the payment")
        assert waiting.returncode == 0, f"subscribe --wait exited {waiting.returncode}: {stderr}"
        assert "Subscription active" in stderr, stderr
    finally:
        if waiting.poll() is None:
            waiting.kill()
            waiting.wait()

    assert deck.has_access() is True, "deck workspace access reports access after paying"
    assert "route  dashboard" in deck.run("workspace", "route").stdout

    # The link again: the session is complete, with nothing to pay.
    driver.get(url)
    body = driver.find_element(By.TAG_NAME, "body").text
    assert "This checkout is complete." in body, body
    assert driver.find_elements(By.TAG_NAME, "button") == []


def test_an_unknown_checkout_session_is_not_found(sandbox, driver):
    url = sandbox.url + "/__sandbox/checkout/cs_test_nope"
    driver.get(url)
    assert driver.find_element(By.TAG_NAME, "body").text == "No such checkout session."
    assert driver.title == "Checkout not found"
    assert driver.find_elements(By.TAG_NAME, "button") == []
    browser.expect_accessible(driver)
    browser.expect_no_console_errors(driver, ignore_url=url)
