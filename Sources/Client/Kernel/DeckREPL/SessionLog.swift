import DeckSupport
import FoundationEssentials

/// The command lines of one REPL session and how each ended, for `history --export`: a script
/// that `deck run` replays.
public struct SessionLog: Sendable {
  public struct Entry: Sendable, Equatable {
    /// The line as typed (with its continuation lines), or as read from an `edit` buffer.
    public var line: String
    /// Its words, after a leading `deck`.
    public var words: [String]
    /// The environment it ran in.
    public var environment: String
    public var exitCode: Int32

    public init(line: String, words: [String], environment: String, exitCode: Int32) {
      self.line = line
      self.words = words
      self.environment = environment
      self.exitCode = exitCode
    }
  }

  public private(set) var entries: [Entry] = []

  public init(entries: [Entry] = []) { self.entries = entries }

  /// Records a command line that ran (REPL built-ins are not recorded).
  public mutating func record(_ entry: Entry) { entries.append(entry) }

  /// The lines a replay runs: those that succeeded and carry no secret.
  public var replayable: [Entry] {
    entries.filter { $0.exitCode == 0 && !HistoryPolicy.isSecret($0.words) }
  }

  /// The script: a header naming the environment and the date, then the replayable lines.
  /// A line that ran in another environment than the first (after `use`) gets `--env NAME`
  /// when `acceptsEnv` says the command takes it, so the replay sends it where it went.
  public func script(date: Date, acceptsEnv: ([String]) -> Bool) -> String {
    let lines = replayable
    let environment = lines.first?.environment ?? entries.last?.environment ?? "sandbox"
    var text = """
      # deck REPL session, exported \(date.formatted(.iso8601)): \(lines.count) command\(lines.count == 1 ? "" : "s")
      # environment: \(environment)
      # replay: deck run FILE --env \(environment)

      """
    for entry in lines {
      var line = entry.line
      if entry.environment != environment && !entry.words.contains(where: { $0 == "--env" || $0.hasPrefix("--env=") }) {
        var words = entry.words
        let option = ["--env", entry.environment]
        words.insert(contentsOf: option, at: words.firstIndex(of: "--") ?? words.endIndex)
        if acceptsEnv(words) {
          line = words.map(ShellWords.quote).joined(separator: " ")
        }
      }
      text += line + "\n"
    }
    return text
  }
}
