import CReadline
import Synchronization

/// A one-line question on the terminal with readline editing: what interactive wizards use.
/// Tab offers the candidates `complete` returns for the whole answer typed so far.
public enum LinePrompt {
  /// The answer, or nil at end of input (Ctrl-D) or on Ctrl-C. Not added to the REPL's history.
  public static func ask(_ prompt: String, complete: (@Sendable (String) -> [String])? = nil) -> String? {
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

  /// A yes/no question; Enter takes the default.
  public static func confirm(_ question: String, default answer: Bool = true) -> Bool {
    let hint = answer ? "[Y/n]" : "[y/N]"
    while true {
      guard let reply = ask("\(question) \(hint) ") else { return false }
      switch reply.trimmingCharacters(in: .whitespaces).lowercased() {
      case "": return answer
      case "y", "yes": return true
      case "n", "no": return false
      default: continue
      }
    }
  }
}
