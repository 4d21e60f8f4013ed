import DeckCore
import DeckSupport
import FoundationEssentials

/// One line of `deck doctor`: what was checked, how it went, what was found, and for anything
/// short of ok the command that fixes it.
struct DoctorCheck: Sendable, Equatable, Encodable {
  enum Status: String, Sendable, Encodable, Comparable {
    case ok
    case warning
    case error

    var symbol: String {
      switch self {
      case .ok: "✓"
      case .warning: "!"
      case .error: "✗"
      }
    }

    private var rank: Int {
      switch self {
      case .ok: 0
      case .warning: 1
      case .error: 2
      }
    }

    static func < (lhs: Status, rhs: Status) -> Bool { lhs.rank < rhs.rank }
  }

  var name: String
  var status: Status
  var detail: String
  /// The command (or step) that fixes it; nil when the check passed.
  @ExplicitNull var fix: String?

  static func ok(_ name: String, _ detail: String) -> DoctorCheck {
    DoctorCheck(name: name, status: .ok, detail: detail, fix: nil)
  }

  static func warning(_ name: String, _ detail: String, fix: String?) -> DoctorCheck {
    DoctorCheck(name: name, status: .warning, detail: detail, fix: fix)
  }

  static func error(_ name: String, _ detail: String, fix: String?) -> DoctorCheck {
    DoctorCheck(name: name, status: .error, detail: detail, fix: fix)
  }

  /// A failed check from a deck error: its message, and its hint as the fix.
  static func failure(_ name: String, _ error: DeckError, status: Status = .error) -> DoctorCheck {
    DoctorCheck(name: name, status: status, detail: error.message, fix: error.hint)
  }
}

/// All of `deck doctor`'s checks, and what they add up to.
struct DoctorReport: Sendable, Equatable {
  var checks: [DoctorCheck]

  var failures: Int { checks.count { $0.status == .error } }
  var warnings: Int { checks.count { $0.status == .warning } }

  /// 0 when nothing failed (warnings allowed), else 1.
  var exitCode: Int32 { failures == 0 ? ExitCode.success : ExitCode.failure }

  var summary: String {
    func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
    if failures == 0 && warnings == 0 { return "No problems found (\(count(checks.count, "check")))." }
    var parts: [String] = []
    if failures > 0 { parts.append("\(count(failures, "check")) failed") }
    if warnings > 0 { parts.append(count(warnings, "warning")) }
    return parts.joined(separator: ", ") + " (of \(count(checks.count, "check")))."
  }

  /// The report as lines for a person: a symbol, the check's name (aligned), what was found,
  /// and under it the fix. `style` colours the symbols (identity without colour). Text from
  /// servers and files is shown without control characters. On a terminal `columns` wide, a
  /// long detail or fix wraps under itself.
  func render(columns: Int? = nil, style: (String, DoctorCheck.Status) -> String = { text, _ in text }) -> String {
    let width = checks.map(\.name.count).max() ?? 0
    let indent = String(repeating: " ", count: width + 4)
    var text = ""
    for check in checks {
      let label = "\(style(check.status.symbol, check.status)) \(check.name.padded(toLength: width))"
      let lines = TextLayout.hanging(
        TerminalText.sanitize(check.detail), after: label, indent: width + 4, columns: columns)
      text += lines.joined(separator: "\n") + "\n"
      if let fix = check.fix, check.status != .ok {
        text += TextLayout.wrapLines("\(indent)fix: \(TerminalText.sanitize(fix))", columns: columns) + "\n"
      }
    }
    return text
  }
}
