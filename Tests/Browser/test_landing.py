"""The kiosk's review landing page (`/r/…`), which a customer's phone opens from the handoff QR
code, in Chromium at a 390x844 phone viewport: the session's stars and review, Copy (the
clipboard), Post (the store's review link, in a new tab), no console errors, and the message
pages of a session that is not approved or does not exist."""

import urllib.error
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

import browser
from deck import wait_for

STORE = "store_demo"


def http_status(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def review_text(driver):
    """The review exactly as the page holds it (Selenium's .text would reflow whitespace)."""
    return driver.execute_script("return document.getElementById('review').textContent")


def clicked(driver, button):
    """Waits for the page to say "Copied." after `button`; else fails with the console's errors."""
    try:
        wait_for(lambda: driver.find_element(By.ID, "status").text == "Copied.", timeout=5,
                 message=f'the page to say "Copied." after {button}')
    except AssertionError as error:
        raise AssertionError(f"{error}; console: {browser.console_errors(driver)}") from None


def expect_review_page(driver, url, rating, review, store_name, items):
    driver.get(url)
    assert driver.title == f"Your review of {store_name}"
    assert driver.find_element(By.TAG_NAME, "h1").text == f"Your review of {store_name}"
    stars = driver.find_element(By.CSS_SELECTOR, ".stars")
    assert stars.text == "★" * rating + "☆" * (5 - rating), f"{rating} stars filled"
    assert review_text(driver) == review, "the page shows the session's review"
    bought = driver.find_element(By.CSS_SELECTOR, ".bought").text
    assert bought == "You bought: " + ", ".join(items), bought
    browser.expect_accessible(driver, stars=f"{rating} out of 5 stars")


def test_review_page_on_a_phone_copy_and_post(sandbox, driver, screenshots):
    deck = sandbox.deck()
    items = ["Handmade Scarf", "Soy Candle"]
    approved, session = deck.approved_review(4, items)
    url = approved["handoffURL"]
    assert url == f"{sandbox.url}/r/{session['publicId']}"
    assert session["status"] == "APPROVED" and session["starRating"] == 4
    review = session["generatedReviewText"]
    assert "Handmade Scarf" in review, review
    store = deck.json("sandbox", "inspect", "store", STORE)
    post_url = "https://www.google.com/maps/search/?api=1&query=" + urllib.parse.quote(store["name"], safe="-._~")

    browser.viewport(driver, browser.PHONE)
    browser.grant_clipboard(driver, sandbox.url)
    expect_review_page(driver, url, 4, review, store["name"], items)
    width, scroll_width = driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
    assert (width, scroll_width) == (390, 390), f"laid out {width} px wide, {scroll_width} px with overflow"
    copy, post = driver.find_element(By.ID, "copy"), driver.find_element(By.ID, "post")
    for control in (copy, post):
        rect = control.rect
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 390, f"{control.text} is on the screen: {rect}"
        assert rect["height"] >= 44, f"{control.text} is at least 44 px tall, to tap: {rect}"
    if sandbox.screenshots:
        browser.screenshot(driver, screenshots, "landing-phone")

    # Copy: exactly the review, replacing what was on the clipboard.
    browser.write_clipboard(driver, "nothing copied yet")
    copy.click()
    clicked(driver, "Copy")
    assert browser.read_clipboard(driver) == review

    # Post: the store's review page, in a new tab; it copies the review too, to paste there.
    assert post.get_attribute("href") == post_url
    assert post.get_attribute("target") == "_blank"
    assert "noopener" in post.get_attribute("rel").split()
    browser.write_clipboard(driver, "nothing copied yet")
    before = driver.window_handles
    post.click()
    tabs = wait_for(lambda: [h for h in driver.window_handles if h not in before], message="Post to open a new tab")
    assert len(tabs) == 1, tabs
    assert driver.current_window_handle == before[0], "the review stays open in its tab"
    driver.switch_to.window(tabs[0])
    wait_for(lambda: driver.current_url == post_url, timeout=10, message=f"the new tab to open {post_url}")
    driver.close()
    driver.switch_to.window(before[0])
    assert browser.read_clipboard(driver) == review, "Post copies the review as well, to paste in the store's page"

    browser.expect_no_console_errors(driver)

    # The kiosk's Done: the session is POSTED_INTENT and its link still shows the review.
    deck.json("kiosk", "done")
    assert deck.json("sandbox", "inspect", "session", session["publicId"])["status"] == "POSTED_INTENT"
    driver.refresh()
    assert review_text(driver) == review

    # Another session, another rating: what the page shows is the session's own.
    items = ["Wool Beanie"]
    approved, other = deck.approved_review(1, items, total="12.00")
    assert other["publicId"] != session["publicId"]
    expect_review_page(driver, approved["handoffURL"], 1, other["generatedReviewText"], store["name"], items)
    browser.expect_no_console_errors(driver)

    if sandbox.screenshots:
        browser.viewport(driver, browser.DESKTOP)
        expect_review_page(driver, url, 4, review, store["name"], ["Handmade Scarf", "Soy Candle"])
        browser.screenshot(driver, screenshots, "landing-desktop")


def expect_message_page(driver, url, title, text):
    assert http_status(url) == 404
    driver.get(url)
    assert driver.title == title
    assert driver.find_element(By.TAG_NAME, "h1").text == title
    assert driver.find_element(By.TAG_NAME, "p").text == text
    assert driver.find_elements(By.CSS_SELECTOR, "button, a, #review, .stars") == [], "no review, Copy or Post"
    browser.expect_accessible(driver)
    browser.expect_no_console_errors(driver, ignore_url=url)


def test_declined_and_unknown_sessions_show_their_message(sandbox, driver, screenshots):
    deck = sandbox.deck()
    browser.viewport(driver, browser.PHONE)
    deck.pair(STORE)
    session_id = deck.purchase(STORE, ["Wool Beanie"], "12.00")
    deck.json("kiosk", "next")
    rated = deck.json("kiosk", "rate", "2")
    assert rated["screen"] == "consent" and rated["generatedReviewText"]
    url = f"{sandbox.url}/r/{session_id}"

    # Rated, not yet approved: nothing to post.
    expect_message_page(
        driver, url, "Review not available", "This review has not been approved for posting.")
    assert rated["generatedReviewText"] not in driver.page_source

    deck.json("kiosk", "decline")
    assert deck.json("sandbox", "inspect", "session", session_id)["status"] == "DECLINED"
    expect_message_page(
        driver, url, "Review not available", "This review has not been approved for posting.")
    assert rated["generatedReviewText"] not in driver.page_source
    if sandbox.screenshots:
        browser.screenshot(driver, screenshots, "landing-declined-phone")

    expect_message_page(
        driver, f"{sandbox.url}/r/sess_doesnotexist", "Review not found", "This review link does not exist.")
