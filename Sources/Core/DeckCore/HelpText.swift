import DeckSupport
import Foundation

/// One exit code a command documents in its help: the code, and what it means for that
/// command (or the standard meaning from the README's table).
public struct ExitDoc: Sendable, Equatable {
  public let code: Int32
  public let meaning: String

  public static func failure(_ meaning: String = "failure") -> ExitDoc {
    ExitDoc(code: ExitCode.failure, meaning: meaning)
  }
  public static func usage(_ meaning: String = "usage error (nothing was sent)") -> ExitDoc {
    ExitDoc(code: ExitCode.usage, meaning: meaning)
  }
  public static func rejected(_ meaning: String = "the server rejected the data") -> ExitDoc {
    ExitDoc(code: ExitCode.dataError, meaning: meaning)
  }
  public static func unavailable(_ meaning: String = "service unavailable") -> ExitDoc {
    ExitDoc(code: ExitCode.unavailable, meaning: meaning)
  }
  public static func unauthorized(_ meaning: String = "not signed in or not allowed") -> ExitDoc {
    ExitDoc(code: ExitCode.noPermission, meaning: meaning)
  }
  public static func interrupted(_ meaning: String = "interrupted") -> ExitDoc {
    ExitDoc(code: ExitCode.interrupted, meaning: meaning)
  }
}

/// Help texts from one place: discussions are reflowed into paragraphs (so the argument
/// parser wraps them once, at the terminal's width), and exit codes are worded from one table.
public enum HelpText {
  /// `text` reflowed, then a paragraph listing the exit codes (0 first, then `exits` in order).
  /// Source text may be wrapped at any width: lines of a paragraph are joined; a blank line
  /// separates paragraphs; lines that start with "-", "*", "$" or two spaces stay lines.
  public static func discussion(_ text: String, exits: [ExitDoc]) -> String {
    var paragraphs = reflow(text)
    paragraphs.append(exitCodes(exits))
    return paragraphs.joined(separator: "\n\n")
  }

  /// "Exit codes:" and one line per code, in order of code, 0 first.
  public static func exitCodes(_ exits: [ExitDoc]) -> String {
    let listed = [ExitDoc(code: ExitCode.success, meaning: "ok")] + exits.sorted { $0.code < $1.code }
    return
      (["Exit codes:"]
      + listed.map { "  \(String($0.code).padding(toLength: 5, withPad: " ", startingAt: 0))\($0.meaning)" })
      .joined(separator: "\n")
  }

  /// Paragraphs of `text`, each on one line (list and code lines kept as lines).
  static func reflow(_ text: String) -> [String] {
    var paragraphs: [String] = []
    var current: [String] = []
    func flush() {
      if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
      current = []
    }
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = String(rawLine)
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty {
        flush()
      } else if line.hasPrefix("  ") || ["-", "*", "$"].contains(where: { trimmed.hasPrefix($0 + " ") })
        || current.isEmpty
      {
        current.append(line.hasPrefix("  ") ? line : trimmed)
      } else if let last = current.last, last.hasPrefix("  ") {
        current.append(trimmed)
      } else {
        current[current.count - 1] += " " + trimmed
      }
    }
    flush()
    return paragraphs
  }
}
