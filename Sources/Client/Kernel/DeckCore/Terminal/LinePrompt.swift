import DeckSupport
import FoundationEssentials

/// Reads one answer from the person at the terminal, with line editing and Tab completion.
/// The deck executable plugs in GNU readline (DeckREPL); a feature asks through `Prompt`, so
/// it never depends on the REPL.
public protocol LineReading: Sendable {
  /// The answer, or nil at end of input (Ctrl-D) or on Ctrl-C. Tab offers the candidates
  /// `complete` returns for the whole answer typed so far. Blocks its thread.
  func readLine(prompt: String, complete: (@Sendable (String) -> [String])?) -> String?
}

/// Questions for wizards and prompts, off the cooperative thread pool: a line reader blocks its
/// thread (and a typeahead may wait for the network on it), so each question runs on a thread
/// of its own.
public struct Prompt: Sendable {
  let reader: any LineReading

  public init(reader: any LineReading) {
    self.reader = reader
  }

  /// The answer, or nil at end of input or on Ctrl-C. The prompt and the candidates Tab offers
  /// (often a server's, such as brokerage names) are shown without control characters.
  public func ask(_ prompt: String, complete: (@Sendable (String) -> [String])? = nil) async -> String? {
    let reader = reader
    let prompt = TerminalText.sanitize(prompt)
    let complete = complete.map { complete in
      { @Sendable (line: String) in complete(line).map { TerminalText.sanitize($0) } }
    }
    return await BlockingWork.run(named: "deck-prompt") { reader.readLine(prompt: prompt, complete: complete) }
  }

  /// A yes/no question; Enter takes the default, end of input answers no.
  public func confirm(_ question: String, default answer: Bool = true) async -> Bool {
    let hint = answer ? "[Y/n]" : "[y/N]"
    while true {
      guard let reply = await ask("\(question) \(hint) ") else { return false }
      if let decided = Self.yesNo(reply, default: answer) { return decided }
    }
  }

  /// y/yes, n/no (any case), empty for the default; nil for anything else.
  public static func yesNo(_ reply: String, default answer: Bool) -> Bool? {
    switch reply.trimming(.whitespaces).lowercased() {
    case "": answer
    case "y", "yes": true
    case "n", "no": false
    default: nil
    }
  }
}
