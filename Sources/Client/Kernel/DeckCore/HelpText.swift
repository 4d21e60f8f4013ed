import ArgumentParser
import DeckSupport
import FoundationEssentials

/// One exit code a command documents in its help: the code, and what it means for that
/// command (or the standard meaning from the guide's table, docs/GUIDE.md).
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

  /// Every exit code deck has, worded as the guide's table (docs/GUIDE.md) words them: what `deck --help`
  /// lists, and what running a line (`deck run`, the REPL) can end with.
  public static let all: [ExitDoc] = [
    .failure("failure (including a bad config or token file, and 404)"), .usage(), .rejected(), .unavailable(),
    .unauthorized("not authenticated or not allowed"), .interrupted(),
  ]
}

/// Help texts from one place: discussions are reflowed into paragraphs (so the argument
/// parser wraps them once, at the terminal's width), and exit codes are worded from one table.
///
/// Every command's configuration builds its discussion with `discussion(_:exits:)`, so its
/// `--help` (and man page) ends with the exit codes it can return; a test walks the command
/// tree for it. Codes several commands share are declared once, as a list their
/// configurations start from (`SandboxOperator.exits`, a module's list) and add to.
public enum HelpText {
  /// `text` reflowed, then a paragraph listing the exit codes (0 first, then `exits` by code;
  /// a code given twice is listed once, with the meaning given last, so a command's own
  /// meaning replaces a shared list's). Source text may be wrapped at any width: lines of a
  /// paragraph are joined; a blank line separates paragraphs; lines that start with "-", "*",
  /// "$" or two spaces stay lines.
  public static func discussion(_ text: String = "", exits: [ExitDoc]) -> String {
    var paragraphs = reflow(text)
    paragraphs.append(exitCodes(exits))
    return paragraphs.joined(separator: "\n\n")
  }

  /// Names as a sentence lists them: `a`, `a and b`, `a, b and c` (empty for none).
  public static func list(_ names: [String]) -> String {
    guard let last = names.last else { return "" }
    return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
  }

  /// "Exit codes:" and one line per code, in order of code, 0 first.
  static func exitCodes(_ exits: [ExitDoc]) -> String {
    var meanings: [Int32: String] = [:]
    for exit in exits { meanings[exit.code] = exit.meaning }
    var text = "Exit codes:\n  " + padded(String(ExitCode.success), to: 5) + "ok"
    for (code, meaning) in meanings.sorted(by: { $0.key < $1.key }) {
      text += "\n  " + padded(String(code), to: 5) + meaning
    }
    return text
  }

  // Every command's configuration, and so its discussion, is built at every start (the argument
  // parser reads the whole tree to parse any line), so reflowing works on UTF-8 bytes: Foundation's
  // trimming, or Swift's Character-by-Character string operations, cost a large share of
  // `deck --version`'s time (bench/README.md, "Figures behind the code").

  /// Paragraphs of `text`, each on one line (list and code lines kept as lines).
  static func reflow(_ text: String) -> [String] {
    let space: UInt8 = 0x20
    let tab: UInt8 = 0x09
    let newline: UInt8 = 0x0A
    let bytes = Array(text.utf8)
    var paragraphs: [String] = []
    var paragraph: [UInt8] = []
    var isEmpty = true
    var lastLineIsIndented = false
    func flush() {
      if !isEmpty { paragraphs.append(String(decoding: paragraph, as: UTF8.self)) }
      paragraph.removeAll(keepingCapacity: true)
      isEmpty = true
    }
    var start = 0
    while start <= bytes.count {
      let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
      var first = start
      var last = end
      while first < last, bytes[first] == space || bytes[first] == tab { first += 1 }
      while last > first, bytes[last - 1] == space || bytes[last - 1] == tab { last -= 1 }
      let line = bytes[start..<end]
      let trimmed = bytes[first..<last]
      let indented = line.count >= 2 && bytes[start] == space && bytes[start + 1] == space
      // "- ", "* " or "$ " begins a list or command line.
      let listItem = trimmed.count >= 2 && [0x2D, 0x2A, 0x24].contains(bytes[first]) && bytes[first + 1] == space
      if trimmed.isEmpty {
        flush()
      } else if indented || listItem || isEmpty || lastLineIsIndented {
        // A line of its own.
        if !isEmpty { paragraph.append(newline) }
        paragraph += indented ? line : trimmed
        isEmpty = false
        lastLineIsIndented = indented
      } else {
        // Joined to the paragraph's last line.
        paragraph.append(space)
        paragraph += trimmed
      }
      start = end + 1
    }
    flush()
    return paragraphs
  }

  /// `text` padded with spaces to `width` characters (cut to it when longer).
  private static func padded(_ text: String, to width: Int) -> String {
    text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
  }
}

extension HelpText {
  /// The options every command has (`GlobalOptions`), as argument-parser writes them in a usage
  /// line, e.g. `[--env <env>] [--json] … [--timeout <seconds>]`.
  /// (argument-parser names the type first, as if it were a command: that name is dropped.)
  static let globalUsage: String = {
    let usage = GlobalOptions.usageString()
    return usage.firstIndex(of: "[").map { String(usage[$0...]) } ?? usage
  }()

  /// Their long names, in order (`--env`, `--json`, …), read from that usage.
  static let globalNames: [String] = globalUsage.split(separator: " ").compactMap { word in
    let name = word.drop { $0 == "[" }.prefix { $0 == "-" || $0.isLetter || $0.isNumber }
    return name.hasPrefix("--") ? String(name) : nil
  }

  /// A subcommand's help with the global options named once instead of described again: the
  /// usage says `[global options]`, OPTIONS keeps the command's own, and a GLOBAL OPTIONS line
  /// names them and points to `deck --help`, which describes them (as gh's INHERITED FLAGS do).
  /// A usage that argument-parser shortened to `<options>` (a command with many options) stays
  /// as it is. The root's help, and any text that is not a subcommand's help, is returned
  /// unchanged.
  public static func condensingGlobalOptions(_ help: String) -> String {
    var lines = help.pieces(separatedBy: "\n")
    guard let usage = lines.firstIndex(where: { $0.hasPrefix("USAGE: deck ") }),
      lines[usage].dropFirst("USAGE: deck ".count).first?.isLetter == true,
      let options = lines.firstIndex(of: "OPTIONS:")
    else { return help }
    lines[usage] = lines[usage].replacing(globalUsage, with: "[global options]")
    let globals = Set(globalNames)
    var end = options + 1
    var kept: [String] = []
    var dropping = false
    var dropped = false
    while end < lines.count, !lines[end].isEmpty {
      let line = lines[end]
      if line.hasPrefix("  -") {
        let names = line.dropFirst(2).pieces(separatedBy: "  ").first ?? ""
        dropping = names.pieces(separatedBy: ", ").contains { globals.contains(String($0.prefix { $0 != " " })) }
      }
      if dropping { dropped = true } else { kept.append(line) }
      end += 1
    }
    // A command without the global options (e.g. `deck completion`) keeps its help.
    guard dropped else { return help }
    // Two lines, so that the pointer fits in 80 columns as argument-parser's own lines do.
    let pointer = [
      "", "GLOBAL OPTIONS:", "  " + globalNames.joined(separator: ", "),
      String(repeating: " ", count: 26) + "(deck --help describes them)",
    ]
    lines.replaceSubrange((options + 1)..<end, with: kept + pointer)
    return lines.joined(separator: "\n")
  }
}

extension HelpText {
  /// Help for a terminal `columns` wide (nil: unchanged). argument-parser wraps descriptions
  /// but writes the usage on one line: it wraps here between its options (`[--plan <plan>]`
  /// stays whole), under its first word. Any other line wider than the terminal (deck's own
  /// GLOBAL OPTIONS lines) wraps at word boundaries, under its indentation (two columns when
  /// that indentation would leave less than half the width).
  public static func fitting(_ help: String, columns: Int?) -> String {
    guard let columns else { return help }
    return help.pieces(separatedBy: "\n").map { line -> String in
      guard TextLayout.displayWidth(line) > columns else { return line }
      if line.hasPrefix("USAGE: ") { return wrappedUsage(line, columns: columns) }
      let lead = line.prefix { $0 == " " }.count
      let body = String(line.dropFirst(lead))
      let indent = columns - lead < columns / 2 ? 2 : lead
      return TextLayout.wrapLines(String(repeating: " ", count: indent) + body, columns: columns)
    }.joined(separator: "\n")
  }

  /// `USAGE: deck … [--a <a>] [--b <b>]` in lines of at most `columns` (a group wider than that
  /// has a line of its own), each after the first indented under `deck`.
  static func wrappedUsage(_ line: String, columns: Int) -> String {
    var groups: [String] = []
    var current = ""
    var depth = 0
    for character in line.dropFirst("USAGE: ".count) {
      if character == " ", depth == 0 {
        if !current.isEmpty { groups.append(current) }
        current = ""
        continue
      }
      if character == "[" || character == "<" { depth += 1 }
      if character == "]" || character == ">" { depth = max(0, depth - 1) }
      current.append(character)
    }
    if !current.isEmpty { groups.append(current) }
    let indent = String(repeating: " ", count: "USAGE: ".count)
    var lines: [String] = []
    var text = "USAGE:"
    for group in groups {
      if TextLayout.displayWidth(text) + 1 + TextLayout.displayWidth(group) > columns, text != "USAGE:", text != indent
      {
        lines.append(text)
        text = indent + group
      } else {
        text += (text == indent ? "" : " ") + group
      }
    }
    lines.append(text)
    return lines.joined(separator: "\n")
  }
}
