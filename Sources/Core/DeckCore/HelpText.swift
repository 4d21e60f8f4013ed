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
    return (["Exit codes:"] + listed.map { "  \(padded(String($0.code), to: 5))\($0.meaning)" })
      .joined(separator: "\n")
  }

  // Every command's configuration, and so its discussion, is built at every start (the argument
  // parser reads the whole tree to parse any line), so these use plain Swift string operations:
  // Foundation's trimming and padding made a fifth of `deck --version`'s time.

  /// Paragraphs of `text`, each on one line (list and code lines kept as lines).
  static func reflow(_ text: String) -> [String] {
    var paragraphs: [String] = []
    var current: [String] = []
    func flush() {
      if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
      current = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = trimmed(line)
      let indented = line.hasPrefix("  ")
      if trimmed.isEmpty {
        flush()
      } else if indented || isListItem(trimmed) || current.isEmpty {
        current.append(String(indented ? line : trimmed))
      } else if let last = current.last, last.hasPrefix("  ") {
        current.append(String(trimmed))
      } else {
        current[current.count - 1] += " " + trimmed
      }
    }
    flush()
    return paragraphs
  }

  /// `line` without its leading and trailing spaces and tabs.
  private static func trimmed(_ line: Substring) -> Substring {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = line.firstIndex(where: { !isBlank($0) }), let last = line.lastIndex(where: { !isBlank($0) })
    else { return "" }
    return line[first...last]
  }

  /// A line that starts with "- ", "* " or "$ ".
  private static func isListItem(_ line: Substring) -> Bool {
    guard let first = line.first, "-*$".contains(first) else { return false }
    return line.dropFirst().first == " "
  }

  /// `text` padded with spaces to `width` characters (cut to it when longer).
  private static func padded(_ text: String, to width: Int) -> String {
    text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
  }
}
