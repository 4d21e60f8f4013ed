import DeckCore
import DeckSupport

/// Script mode: commands line by line, no prompt, no colour, one shared connection pool.
/// Like `sh -e`, the first failing command stops the run and its exit code is deck's;
/// with `keepGoing` every line runs and the first failure's code is returned at the end.
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

  public func run(lines: some Sequence<String>, source: String) async -> Int32 {
    session.runsManyLines.withLock { $0 = true }
    var firstFailure: Int32 = 0
    var pending = ShellWords.Continuation()
    var lineNumber = 0
    var text: [String] = []
    for line in lines {
      lineNumber += 1
      let startLine = pending.isEmpty ? lineNumber : pending.firstLine
      if pending.isEmpty { text = [] }
      text.append(line)
      var words: [String]
      switch pending.add(line, number: lineNumber) {
      case .more:
        continue
      case .tooLong:
        session.output.error(
          "\(source):\(pending.quoteLine ?? startLine): \(pending.problem); the command ran on for more than \(ShellWords.Continuation.maxLines) lines or \(ShellWords.Continuation.maxBytes / 1024) KiB, so deck stopped reading."
        )
        session.output.info("Close the quote, or escape the apostrophe (O\\'Brien, or \"O'Brien\").")
        return firstFailure == 0 ? ExitCode.usage : firstFailure
      case .words(let complete):
        words = complete
      }
      if words.first == "deck" { words.removeFirst() }
      guard !words.isEmpty else { continue }
      let code = await DeckShell.run(words, session: session)
      ran?(text.joined(separator: "\n"), words, code)
      if code != 0 {
        if firstFailure == 0 { firstFailure = code }
        if !keepGoing {
          session.output.info("\(source):\(startLine): stopped: the command exited with \(code).")
          return code
        }
      }
    }
    if !pending.isEmpty {
      session.output.error(
        "\(source):\(pending.quoteLine ?? pending.firstLine): \(pending.problem), still open at the end of the script.")
      session.output.info("Close the quote, or escape the apostrophe (O\\'Brien, or \"O'Brien\").")
      return firstFailure == 0 ? ExitCode.usage : firstFailure
    }
    return firstFailure
  }
}
