"""Headless Chromium (Debian's `chromium` and `chromium-driver`) through Selenium, and the
checks the tests make through it: console errors, accessibility, screenshots.

No browser is downloaded: the driver and the browser are the system's, given by path (CHROMIUM,
CHROMEDRIVER override them), and Selenium Manager is kept offline.
"""

import os
import shutil

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

os.environ.setdefault("SE_OFFLINE", "true")

DESKTOP = (1000, 700)
PHONE = (390, 844)


def chromium_paths():
    """The browser and its driver; a clear error when either is missing (never a skip)."""
    browser = shutil.which(os.environ.get("CHROMIUM") or "chromium")
    driver = shutil.which(os.environ.get("CHROMEDRIVER") or "chromedriver")
    missing = []
    if not browser:
        missing.append("chromium (the browser)")
    if not driver:
        missing.append("chromedriver (Debian: chromium-driver)")
    if missing:
        raise RuntimeError(
            "Chromium is required for the browser tests and was not found: " + ", ".join(missing)
            + ". Install it with `scripts/setup --browser` (apt-get install chromium chromium-driver), or set CHROMIUM "
            "and CHROMEDRIVER.")
    return browser, driver


def start(size=DESKTOP):
    browser, driver_path = chromium_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in [
        "--headless=new",
        "--no-sandbox",  # as root (CI containers)
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--lang=en-US",
        "--hide-scrollbars",
        # Nothing leaves the machine: every host but the sandbox's fails to resolve. (The Post
        # link's new tab keeps its URL; its page is an error page.)
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(10)
    viewport(driver, size)
    return driver


def viewport(driver, size):
    """The desktop size, or a phone: 390x844 CSS pixels, twice as many device pixels, touch and
    the mobile viewport (so `<meta name=viewport>` is honoured as on a phone)."""
    width, height = size
    phone = size == PHONE
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 2 if phone else 1, "mobile": phone})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone})


def console_errors(driver, ignore_url=None):
    """SEVERE entries of the browser log since the last call (script errors, failed loads)."""
    entries = driver.get_log("browser")
    errors = [entry for entry in entries if entry["level"] == "SEVERE"]
    if ignore_url:
        # A message page's own 404 status is the page, not an error on it.
        errors = [entry for entry in errors if not entry["message"].startswith(ignore_url + " - Failed to load")]
    return [entry["message"] for entry in errors]


def expect_no_console_errors(driver, ignore_url=None):
    errors = console_errors(driver, ignore_url)
    if errors:
        raise AssertionError(f"console errors on {driver.current_url}:\n  " + "\n  ".join(errors))


def expect_accessible(driver, stars=None):
    problems = accessibility_problems(driver, stars)
    if problems:
        raise AssertionError(f"accessibility of {driver.current_url}:\n  " + "\n  ".join(problems))


def grant_clipboard(driver, origin):
    driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": origin, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})


def read_clipboard(driver):
    return driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "navigator.clipboard.readText().then(done, function (e) { done('clipboard read failed: ' + e); });")


def write_clipboard(driver, text):
    result = driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "navigator.clipboard.writeText(arguments[0]).then(function () { done('ok'); },"
        " function (e) { done('clipboard write failed: ' + e); });", text)
    assert result == "ok", result


def screenshot(driver, directory, name):
    """A PNG of what the window shows at its current size (both pages fit in it)."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name + ".png")
    if not driver.save_screenshot(path):
        raise AssertionError(f"could not save the screenshot {path}")
    return path


# Accessibility ----------------------------------------------------------------------------

def accessibility_tree(driver):
    """The page's accessibility tree as Chromium exposes it to screen readers: the nodes that
    are not ignored, each with its role, name and the roles of its (not ignored) ancestors."""
    nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    by_id = {node["nodeId"]: node for node in nodes}
    result = []
    for node in nodes:
        if node.get("ignored"):
            continue
        ancestors = []
        parent = by_id.get(node.get("parentId"))
        while parent is not None:
            if not parent.get("ignored"):
                ancestors.append((parent.get("role") or {}).get("value", ""))
            parent = by_id.get(parent.get("parentId"))
        result.append({
            "role": (node.get("role") or {}).get("value", ""),
            "name": str((node.get("name") or {}).get("value", "")).strip(),
            "ancestors": ancestors,
        })
    return result


CONTRAST_SCRIPT = r"""
// WCAG 2.x contrast of every visible text node against what is behind it: the first opaque
// background up the tree, with translucent ones blended in. Large text (24px, or 18.66px
// bold) needs 3:1, other text 4.5:1.
function parse(color) {
  var m = color.match(/rgba?\(([^)]+)\)/);
  if (!m) return null;
  var p = m[1].split(/[ ,\/]+/).filter(function (s) { return s.length; }).map(parseFloat);
  return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
}
function over(top, bottom) {
  var a = top.a + bottom.a * (1 - top.a);
  if (a === 0) return { r: 0, g: 0, b: 0, a: 0 };
  function mix(t, b) { return (t * top.a + b * bottom.a * (1 - top.a)) / a; }
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: a };
}
function luminance(c) {
  function channel(v) { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }
  return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}
function background(element) {
  var layers = [];
  for (var e = element; e; e = e.parentElement) {
    var style = getComputedStyle(e);
    if (style.backgroundImage && style.backgroundImage !== "none") return { image: e.tagName };
    var c = parse(style.backgroundColor);
    if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
  }
  var result = { r: 255, g: 255, b: 255, a: 1 };  // the canvas
  for (var i = layers.length - 1; i >= 0; i--) result = over(layers[i], result);
  return result;
}
var results = [];
var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
var seen = new Set();
while (walker.nextNode()) {
  var node = walker.currentNode;
  if (!node.textContent.trim()) continue;
  var element = node.parentElement;
  if (!element || seen.has(element)) continue;
  seen.add(element);
  if (element.closest("script, style, [aria-hidden=true]")) continue;
  var rect = element.getBoundingClientRect();
  var style = getComputedStyle(element);
  if (rect.width === 0 || rect.height === 0 || style.visibility === "hidden" || style.display === "none") continue;
  var bg = background(element);
  var size = parseFloat(style.fontSize), weight = parseInt(style.fontWeight, 10) || 400;
  var large = size >= 24 || (size >= 18.66 && weight >= 700);
  var entry = { text: node.textContent.trim().slice(0, 40), tag: element.tagName.toLowerCase(),
    color: style.color, background: bg.image ? "image" : "rgb(" + [bg.r, bg.g, bg.b].map(Math.round) + ")",
    fontSize: size, fontWeight: weight, required: large ? 3 : 4.5 };
  if (bg.image) { entry.ratio = null; results.push(entry); continue; }
  var fg = over(parse(style.color), bg);
  var l1 = luminance(fg), l2 = luminance(bg);
  entry.ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  results.push(entry);
}
return results;
"""


def contrast(driver):
    return driver.execute_script(CONTRAST_SCRIPT)


def accessibility_problems(driver, stars=None):
    """What fails the basic checks of issue 30, as readable lines (empty when all pass):
    the page language, names of buttons and links, the stars' text alternative (when the page
    shows `stars`, e.g. "4 out of 5 stars"), and WCAG AA text contrast."""
    problems = []
    language = driver.execute_script("return document.documentElement.getAttribute('lang') || ''")
    if not language.strip():
        problems.append("<html> has no lang attribute")
    tree = accessibility_tree(driver)
    for node in tree:
        if node["role"] in ("button", "link", "textbox", "checkbox", "combobox") and not node["name"]:
            problems.append(f"a {node['role']} has no accessible name")
    buttons = [node for node in tree if node["role"] == "button"]
    if not buttons and driver.find_elements("css selector", "button, [role=button], input[type=submit]"):
        problems.append("buttons on the page are missing from the accessibility tree")
    # The glyphs themselves must not be read out ("black star, black star, …"): they may only sit
    # inside an image, whose children are presentational (a leaf to screen readers).
    glyphs = [node for node in tree
              if node["role"] == "StaticText" and any(star in node["name"] for star in "★☆")
              and "image" not in node["ancestors"]]
    if stars is not None:
        named = [node for node in tree if node["name"] == stars]
        if not named:
            problems.append(f"no element is announced as {stars!r} (the stars' text alternative)")
        elif not any(node["role"] == "image" for node in named):
            problems.append(
                f"{stars!r} is the name of a {named[0]['role']}, not of an image (role=img): screen readers "
                "may ignore it, or read it and the glyphs both")
    if glyphs:
        problems.append(
            "screen readers read the star glyphs out: " + ", ".join(
                f"{node['name']!r} in a {node['ancestors'][0] if node['ancestors'] else 'page'}" for node in glyphs))
    for entry in contrast(driver):
        if entry["ratio"] is None:
            problems.append(f"text over a background image, contrast unchecked: {entry}")
        elif entry["ratio"] < entry["required"]:
            problems.append(
                f"contrast {entry['ratio']:.2f}:1 < {entry['required']}:1 for <{entry['tag']}> {entry['text']!r} "
                f"({entry['color']} on {entry['background']}, {entry['fontSize']}px weight {entry['fontWeight']})")
    return problems
