import DeckCore
import DeckSupport
import FoundationEssentials
import Synchronization

/// What a run shows on a terminal (stderr): a line per scenario as it ends, a summary, and
/// each failure with its step, expected and actual values and the command to rerun it.
/// Without a terminal it shows nothing: the report is the output.
final class QAProgress: Sendable {
  let output: Output
  let environment: String
  let total: Int
  let done = Mutex(0)

  init(output: Output, environment: String, total: Int) {
    self.output = output
    self.environment = environment
    self.total = total
  }

  var shows: Bool { output.stderrIsTerminal }

  func finished(_ result: ScenarioResult) {
    guard shows else { return }
    let count = done.withLock {
      $0 += 1
      return $0
    }
    let mark: String
    switch result.status {
    case .passed: mark = output.style("ok  ", .green)
    case .failed: mark = output.style("FAIL", .red)
    case .error: mark = output.style("ERR ", .red)
    case .skipped: mark = output.style("skip", .dim)
    }
    // The scenario's words are sanitized before deck styles the line around them.
    var line = "[\(count)/\(total)] \(mark) \(TerminalText.sanitize(result.scenario.id))"
    if !result.scenario.title.isEmpty { line += "  " + TerminalText.sanitize(result.scenario.title) }
    if case .skipped(let reason) = result.status {
      line += output.style("  (\(TerminalText.sanitize(reason)))", .dim)
    } else {
      line += output.style("  \(QAReport.time(result.seconds)) s", .dim)
    }
    output.styledInfo(line)
  }

  func summary(_ results: [ScenarioResult], seconds: Double) {
    guard shows else { return }
    let counts = QAReport.counts(results)
    var parts = ["\(counts.passed) passed"]
    if counts.failed > 0 { parts.append("\(counts.failed) failed") }
    if counts.errors > 0 { parts.append("\(counts.errors) could not run") }
    if counts.skipped > 0 { parts.append("\(counts.skipped) skipped") }
    output.info("")
    output.info("\(parts.joined(separator: ", ")) in \(NumberText.fixed(seconds, digits: 1)) s (\(environment))")
    let broken = results.filter { $0.status == .failed || $0.status == .error }
    for result in broken {
      output.info("")
      output.styledInfo(
        output.style(result.status == .failed ? "FAILED" : "COULD NOT RUN", .red)
          + TerminalText.sanitize(
            " \(result.scenario.id)" + (result.scenario.title.isEmpty ? "" : "  " + result.scenario.title)
              + "  (\(result.scenario.place))"))
      if let step = result.problem {
        for line in QAReport.describe(step).split(separator: "\n", omittingEmptySubsequences: false) {
          output.info("  " + line)
        }
      }
      output.info("  rerun: " + QAReport.rerun(result.scenario, environment: environment))
    }
  }
}
