import DeckSupport
import DeckValues
import FoundationEssentials

/// The HTML report (`--report html`): one self-contained page a person opens in a browser. No
/// script, no font, no image and no link to load: its style is in the page, and its content
/// security policy (`default-src 'none'`) lets the browser fetch nothing. A summary with the
/// counts and the time; then the scenarios that failed or could not run, each open, with the
/// command that reruns it; then the others. Each scenario lists its steps: the command, the
/// exit code, the expectations with what came of each, and stdout and stderr (their start,
/// redacted as every report is). Every text is escaped by the one markup escaper
/// (``MarkupText``), so a title or an output cannot add markup.
extension QAReport {
  func html() -> String {
    let counts = Self.counts(results)
    let broken = results.filter { $0.status == .failed || $0.status == .error }
    let passed = results.filter { $0.status == .passed }
    let skipped = results.filter { if case .skipped = $0.status { true } else { false } }
    var parts: [String] = ["\(counts.passed) passed"]
    if counts.failed > 0 { parts.append("\(counts.failed) failed") }
    if counts.errors > 0 { parts.append("\(counts.errors) could not run") }
    if counts.skipped > 0 { parts.append("\(counts.skipped) skipped") }
    let verdict = counts.failed + counts.errors > 0 ? "failed" : "passed"
    var page = [
      "<!DOCTYPE html>",
      "<html lang=\"en\">",
      "<head>",
      "<meta charset=\"utf-8\">",
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
      "<title>\(Self.escape("deck qa: \(parts.joined(separator: ", ")) (\(environment))"))</title>",
      "<style>\(Self.style)</style>",
      "</head>",
      "<body>",
      "<header class=\"summary \(verdict)\">",
      "<h1>deck qa report</h1>",
      "<p class=\"counts\">\(Self.escape(parts.joined(separator: ", "))) of \(counts.total) scenario\(counts.total == 1 ? "" : "s") in \(Self.escape(NumberText.fixed(seconds, digits: 1))) s</p>",
      "<p class=\"meta\">environment <code>\(Self.escape(environment))</code>, \(Self.escape(timestamp.formatted(.iso8601)))</p>",
      "</header>",
    ]
    if !broken.isEmpty {
      page.append("<section id=\"failures\">")
      page.append("<h2>Failed (\(broken.count))</h2>")
      page += broken.map { scenario($0, open: true) }
      page.append("</section>")
    }
    if !passed.isEmpty {
      page.append("<section id=\"passed\">")
      page.append("<h2>Passed (\(passed.count))</h2>")
      page += passed.map { scenario($0, open: false) }
      page.append("</section>")
    }
    if !skipped.isEmpty {
      page.append("<section id=\"skipped\">")
      page.append("<h2>Skipped (\(skipped.count))</h2>")
      page += skipped.map { scenario($0, open: false) }
      page.append("</section>")
    }
    page += ["</body>", "</html>"]
    return page.joined(separator: "\n") + "\n"
  }

  /// One scenario: a `details` element, open for a failure.
  func scenario(_ result: ScenarioResult, open: Bool) -> String {
    let status = result.status.name
    let label: String
    switch result.status {
    case .passed: label = "passed"
    case .failed: label = "FAILED"
    case .error: label = "COULD NOT RUN"
    case .skipped: label = "skipped"
    }
    var html = [
      "<details class=\"scenario \(status)\" id=\"\(Self.escape("scenario-" + result.scenario.id))\"\(open ? " open" : "")>",
      "<summary><span class=\"badge \(status)\">\(label)</span> <span class=\"id\">\(Self.escape(result.scenario.id))</span>"
        + (result.scenario.title.isEmpty ? "" : " <span class=\"title\">\(Self.escape(result.scenario.title))</span>")
        + " <span class=\"time\">\(Self.escape(Self.time(result.seconds))) s</span></summary>",
      "<p class=\"place\">\(Self.escape(result.scenario.module)) · \(Self.escape(result.scenario.place))</p>",
    ]
    if case .skipped(let reason) = result.status {
      html.append("<p class=\"reason\">\(Self.escape(reason))</p>")
    }
    if result.status == .failed || result.status == .error {
      if let step = result.problem {
        html.append("<pre class=\"problem\">\(Self.escape(Self.describe(step)))</pre>")
      }
      html.append(
        "<p class=\"rerun\">Rerun: <code>\(Self.escape(Self.rerun(result.scenario, environment: environment)))</code></p>"
      )
    }
    if !result.steps.isEmpty {
      html.append("<ol class=\"steps\">")
      html += result.steps.map(step)
      html.append("</ol>")
    }
    html.append("</details>")
    return html.joined(separator: "\n")
  }

  /// One step: its command, exit code and time; its expectations; its output.
  func step(_ step: StepResult) -> String {
    var html = [
      "<li class=\"step \(step.status.rawValue)\">",
      "<div class=\"command\"><span class=\"badge \(step.status.rawValue)\">\(step.status.rawValue)</span> "
        + "<code>\(Self.escape("deck " + step.line))</code></div>",
      "<p class=\"facts\">step \(step.number), line \(step.fileLine)"
        + (step.exitCode.map { ", exit code <b class=\"exit\">\($0)</b>" } ?? ", no exit code")
        + ", \(Self.escape(Self.time(step.seconds))) s</p>",
    ]
    if let message = step.message, step.status != .failed {
      html.append("<p class=\"message\">\(Self.escape(message))</p>")
    }
    if !step.expectations.isEmpty {
      html.append("<ul class=\"expectations\">")
      for item in step.expectations {
        let (kind, mark) =
          switch item.held {
          case .some(true): ("held", "✓")
          case .some(false): ("broke", "✗")
          case .none: ("unchecked", "–")
          }
        html.append(
          "<li class=\"\(kind)\"><span class=\"mark\">\(mark)</span> <code>\(Self.escape(item.text))</code></li>")
      }
      html.append("</ul>")
    }
    for (name, text) in [("stdout", step.stdout), ("stderr", step.stderr)] {
      guard let text, !text.isEmpty, text != "(empty)" else { continue }
      let open = step.status == .failed || step.status == .error ? " open" : ""
      html.append(
        "<details class=\"output \(name)\"\(open)><summary>\(name)</summary><pre>\(Self.escape(Self.htmlExcerpt(text)))</pre></details>"
      )
    }
    html.append("</li>")
    return html.joined(separator: "\n")
  }

  /// At most 4,000 characters of an output (the runner keeps 2,000; a stopped step's stderr
  /// is read whole).
  static func htmlExcerpt(_ text: String) -> String { OutputExcerpt.of(text, limit: 4000) }

  static let style = """
    body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:70rem;padding:1rem;\
    color:#1d1d1f;background:#fff}\
    h1{font-size:1.4rem;margin:0 0 .3rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}\
    code,pre{font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono",monospace}\
    pre{white-space:pre-wrap;word-break:break-word;background:#f5f5f7;padding:.5rem;border-radius:4px;margin:.3rem 0}\
    .summary{padding:.8rem 1rem;border-radius:6px;border-left:6px solid #2e7d32;background:#eef7ee}\
    .summary.failed{border-color:#c62828;background:#fdecec}.counts{font-size:1.1rem;font-weight:600;margin:0}\
    .meta,.place,.facts{color:#555;margin:.2rem 0}\
    .scenario{border:1px solid #ddd;border-radius:6px;margin:.5rem 0;padding:.4rem .8rem}\
    .scenario.failed,.scenario.error{border-color:#c62828}\
    .scenario>summary{cursor:pointer;font-weight:600}.title{font-weight:400}.time{color:#777;font-weight:400}\
    .badge{display:inline-block;font-size:11px;font-weight:700;padding:0 .4rem;border-radius:3px;color:#fff;\
    background:#2e7d32;text-transform:uppercase}\
    .badge.failed,.badge.error{background:#c62828}.badge.skipped{background:#888}\
    .problem{background:#fdecec}.rerun code{background:#f5f5f7;padding:.1rem .3rem;user-select:all}\
    .steps{padding-left:1.2rem}.step{margin:.5rem 0}.step.skipped{color:#888}\
    .expectations{list-style:none;padding-left:.5rem;margin:.2rem 0}\
    .held .mark{color:#2e7d32}.broke{color:#c62828;font-weight:600}.unchecked{color:#888}\
    .output>summary{cursor:pointer;color:#555}
    """
}
