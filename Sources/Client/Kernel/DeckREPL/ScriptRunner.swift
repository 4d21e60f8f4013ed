import DeckCore
import DeckSupport
import Synchronization

/// Script mode: commands line by line, no prompt, no colour, one shared connection pool.
/// Like `sh -e`, the first failing command stops the run and its exit code is deck's;
/// with `keepGoing` every line runs, each failure is reported with its `file:line`, a summary
/// ends the run and the first failure's code is returned.
///
/// `let NAME = COMMAND…` runs the command with its stdout captured and keeps that output (less
/// one trailing newline) as a variable; `$NAME` and `${NAME}` in later lines are replaced by
/// it, outside single quotes (``ShellWords/expand(_:variables:)``).
public struct ScriptRunner: Sendable {
  let session: DeckSession
  let keepGoing: Bool
  /// Told about each command after it ran: its text (continuation lines included), its words
  /// (after a leading `deck`) and its exit code. The REPL's `edit` records them.
  let ran: (@Sendable (_ text: String, _ words: [String], _ code: Int32) -> Void)?

  public init(
    session: DeckSession, keepGoing: Bool,
    ran: (@Sendable (_ text: String, _ words: [String], _ code: Int32) -> Void)? = nil
  ) {
    self.session = session
    self.keepGoing = keepGoing
    self.ran = ran
  }

  /// What a run did so far: for `--keep-going`'s summary.
  struct Tally {
    var run = 0
    var failedLines: [Int] = []
    var firstFailure: Int32 = 0

    mutating func failed(line: Int, code: Int32) {
      failedLines.append(line)
      if firstFailure == 0 { firstFailure = code }
    }

    /// "5 lines run, 2 failed (lines 2, 4)".
    var summary: String {
      let lines = "\(run) line\(run == 1 ? "" : "s") run, \(failedLines.count) failed"
      guard !failedLines.isEmpty else { return lines }
      let which = failedLines.map(String.init).joined(separator: ", ")
      return lines + " (line\(failedLines.count == 1 ? "" : "s") \(which))"
    }
  }

  public func run(lines: some Sequence<String>, source: String) async -> Int32 {
    session.runsManyLines.withLock { $0 = true }
    return await session.providers.preferringClientThread { await runLines(lines, source: source) }
  }

  func runLines(_ lines: some Sequence<String>, source: String) async -> Int32 {
    var tally = Tally()
    var variables: [String: String] = [:]
    func finish(_ code: Int32) -> Int32 {
      if keepGoing { session.output.info("\(source): \(tally.summary)") }
      return code
    }
    var commands = ScriptCommands(lines: lines.makeIterator())
    var upcoming = commands.next()
    // The current command, parsed while the one before it ran (nil: parse it now).
    var prepared: DeckRunner.ParsedLine?
    while let item = upcoming {
      upcoming = commands.next()
      switch item {
      case .tooLong(let start, let line, let problem):
        session.output.error(
          "\(source):\(line): \(problem); the command ran on for more than \(ShellWords.Continuation.maxLines) lines or \(ShellWords.Continuation.maxBytes / 1024) KiB, so deck stopped reading."
        )
        session.output.info("Close the quote, or escape the apostrophe (O\\'Brien, or \"O'Brien\").")
        tally.failed(line: start, code: ExitCode.usage)
        return finish(tally.firstFailure)
      case .unclosed(let start, let line, let problem):
        session.output.error("\(source):\(line): \(problem), still open at the end of the script.")
        session.output.info("Close the quote, or escape the apostrophe (O\\'Brien, or \"O'Brien\").")
        tally.failed(line: start, code: ExitCode.usage)
      case .command(let command):
        tally.run += 1
        // The next command is parsed while this one runs: on the same thread, while this one
        // waits for the server (parsing is a large share of a line's CPU; bench/README.md). Only
        // a command no earlier line can change (`wordsToPrepare`).
        let next = upcoming?.wordsToPrepare
        async let nextParsed = next.map { DeckShell.prepare($0, session: session) }
        let code = await runCommand(command, source: source, variables: &variables, prepared: prepared)
        prepared = await nextParsed
        if code != 0 {
          tally.failed(line: command.line, code: code)
          if !keepGoing {
            session.output.info("\(source):\(command.line): stopped: the command exited with \(code).")
            return code
          }
          let firstLine = String(command.text.prefix { $0 != "\n" })
          let shown = firstLine.count < command.text.count ? firstLine + " …" : firstLine
          session.output.info("\(source):\(command.line): \(shown.trimmingLeadingSpaces): exit \(code)")
        }
      }
    }
    return finish(tally.firstFailure)
  }

  /// Runs one complete command and returns its exit code: a `let` keeps the command's stdout
  /// in `variables`. `prepared`: the command, parsed while the one before it ran.
  func runCommand(
    _ command: ScriptCommand, source: String, variables: inout [String: String], prepared: DeckRunner.ParsedLine?
  ) async -> Int32 {
    let text = command.text
    let line = command.line
    var words = command.words
    if command.refersToVariables {
      do throws(ShellWords.ExpansionError) {
        words = try ShellWords.expand(text, variables: variables)
      } catch {
        session.output.error("\(source):\(line): \(error.message)")
        ran?(text, words, ExitCode.usage)
        return ExitCode.usage
      }
    }
    words = ScriptCommand.withoutDeck(words)
    guard words.first == "let" else {
      guard !words.isEmpty else { return 0 }
      let code =
        if let prepared { await DeckShell.run(prepared, session: session) } else {
          await DeckShell.run(words, session: session)
        }
      ran?(text, words, code)
      return code
    }
    guard words.count >= 4, words[2] == "=", Self.isName(words[1]) else {
      session.output.error(
        "\(source):\(line): a let line is: let NAME = COMMAND… (e.g. let sid = kiosk next --jq .acted.publicId)")
      ran?(text, words, ExitCode.usage)
      return ExitCode.usage
    }
    let command = Array(words.dropFirst(words.count > 4 && words[3] == "deck" ? 4 : 3))
    if let first = command.first, !first.hasPrefix("-"), !DeckShell.builtinNames.contains(first) {
      session.output.error("\(source):\(line): let captures the output of deck's own commands; \(first) is none.")
      ran?(text, words, ExitCode.usage)
      return ExitCode.usage
    }
    let captured = CapturedText()
    let code = await session.capturingStdout(into: { piece in captured.text.withLock { $0 += piece } }) {
      await DeckShell.run(command, session: session)
    }
    ran?(text, words, code)
    guard code == 0 else { return code }
    var value = captured.text.withLock { $0 }
    if value.hasSuffix("\n") { value.removeLast() }
    variables[words[1]] = value
    return 0
  }

  /// A variable's name: a letter or `_`, then letters, digits and `_`.
  static func isName(_ word: String) -> Bool { ShellWords.isVariableName(word) }
}

/// One complete command of a script.
struct ScriptCommand {
  /// The command's lines, joined by newlines.
  var text: String
  /// Its words, split without expansion.
  var words: [String]
  /// The number of its first line.
  var line: Int

  /// Whether the command may refer to a variable: only a line with a `$` can, and only such a
  /// line is expanded; the others run exactly as split.
  var refersToVariables: Bool { text.unicodeScalars.contains("$") }

  /// The words without a leading `deck`, which a line may have or not.
  static func withoutDeck(_ words: [String]) -> [String] {
    words.first == "deck" ? Array(words.dropFirst()) : words
  }
}

/// A script's commands, one at a time, as the shell splits them: a command may run on over
/// several lines (an open quote, a trailing backslash).
struct ScriptCommands<Lines: IteratorProtocol<String>>: IteratorProtocol {
  enum Item {
    case command(ScriptCommand)
    /// A command that ran on past the limits (``ShellWords/Continuation/maxLines``): the line
    /// it starts on, the line of its open quote (else its first) and what is open.
    case tooLong(start: Int, line: Int, problem: String)
    /// A quote or a backslash still open at the end of the script, as `tooLong` reports it.
    case unclosed(start: Int, line: Int, problem: String)

    /// The words `DeckShell` parses for this command, when nothing a line before it does can
    /// change how they parse: no `$NAME`, not a `let`, not a shell's completion request (its
    /// parse asks the backend for values) (nil otherwise).
    var wordsToPrepare: [String]? {
      guard case .command(let command) = self, !command.refersToVariables else { return nil }
      let words = ScriptCommand.withoutDeck(command.words)
      guard let first = words.first, first != "let", first != "---completion" else { return nil }
      return words
    }
  }

  var lines: Lines
  private var pending = ShellWords.Continuation()
  private var lineNumber = 0
  private var text: [String] = []
  private var ended = false

  init(lines: Lines) { self.lines = lines }

  mutating func next() -> Item? {
    while !ended, let line = lines.next() {
      lineNumber += 1
      let startLine = pending.isEmpty ? lineNumber : pending.firstLine
      if pending.isEmpty { text = [] }
      text.append(line)
      switch pending.add(line, number: lineNumber) {
      case .more:
        continue
      case .tooLong:
        ended = true
        return .tooLong(start: startLine, line: pending.quoteLine ?? startLine, problem: pending.problem)
      case .words(let words):
        guard !words.isEmpty else { continue }
        return .command(ScriptCommand(text: text.joined(separator: "\n"), words: words, line: startLine))
      }
    }
    guard !ended, !pending.isEmpty else { return nil }
    ended = true
    return .unclosed(start: pending.firstLine, line: pending.quoteLine ?? pending.firstLine, problem: pending.problem)
  }
}

/// What a `let` line's command printed on stdout (written from the task that runs it).
final class CapturedText: Sendable {
  let text = Mutex("")
}

extension String {
  fileprivate var trimmingLeadingSpaces: Substring { drop { $0 == " " || $0 == "\t" } }
}
