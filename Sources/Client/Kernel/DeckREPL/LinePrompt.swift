import CReadline
import DeckCore
import Synchronization

/// GNU readline as deck's line reader (`DeckSession.lineReader`): one-line questions with
/// readline editing for wizards. Tab offers the candidates `complete` returns for the whole
/// answer typed so far. Answers are not added to the REPL's history.
public struct ReadlineLineReader: LineReading {
  public init() {}

  public func readLine(prompt: String, complete: (@Sendable (String) -> [String])?) -> String? {
    Readline.install(name: "deck")
    let previous = Readline.completer.withLock { current in
      defer { current = complete }
      return current
    }
    Readline.wholeLine.store(true, ordering: .relaxed)
    deck_rl_set_word_breaks("")
    defer {
      Readline.completer.withLock { $0 = previous }
      Readline.wholeLine.store(false, ordering: .relaxed)
      deck_rl_set_word_breaks(" \t\n")
    }
    guard case .line(let answer) = Readline.read(prompt: prompt) else { return nil }
    return answer
  }
}
