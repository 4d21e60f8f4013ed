import CReadline
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// GNU readline for the REPL: prompts, history, Tab completion, and Ctrl-C that clears the
/// line at the prompt and cancels the running command otherwise.
///
/// readline's callbacks are C function pointers without context, so their state lives in
/// these globals, guarded by `Mutex` and `Atomic`.
enum Readline {
  /// Candidates for the word under the cursor, given the line up to the cursor.
  static let completer = Mutex<(@Sendable (String) -> [String])?>(nil)
  /// True while a command runs (Ctrl-C cancels it instead of clearing the line).
  static let commandRunning = Atomic<Bool>(false)
  /// The write end of the pipe the SIGINT handler signals a running command through.
  static let interruptFD = Atomic<Int32>(-1)
  /// Complete the whole line as one value (prompts) instead of shell words (the REPL).
  static let wholeLine = Atomic<Bool>(false)
  private static let installed = Atomic<Bool>(false)

  static let complete: deck_completion_function = { text, _, _ in
    let linePointer = deck_rl_line_to_point()
    let line = linePointer.map { String(cString: $0) } ?? ""
    free(linePointer)
    let typed = text.map { String(cString: $0) } ?? ""
    let quoted = deck_rl_completion_quote_character() != 0 || wholeLine.load(ordering: .relaxed)
    let candidates = completer.withLock { $0 }?(line) ?? []
    guard !candidates.isEmpty else {
      deck_rl_completion_flags(1)
      return nil
    }
    // Inside a quote readline closes it; outside, names with spaces are quoted here.
    let replacements = candidates.map { quoted ? $0 : ShellWords.quote($0) }
    var common = commonPrefix(replacements)
    if common.count < typed.count || !common.lowercased().hasPrefix(typed.lowercased().prefix(common.count)) {
      if replacements.count > 1 { common = typed }
    }
    deck_rl_completion_flags(
      replacements.count == 1 && (replacements[0].hasSuffix("=") || replacements[0].hasSuffix("/")) ? 1 : 0)
    // readline wants [substitution, match..., NULL] and frees the array and strings with free(3).
    let entries = replacements.count == 1 ? [replacements[0]] : [common] + replacements
    let list = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (entries.count + 1))!
      .assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
    for (index, entry) in entries.enumerated() { list[index] = strdup(entry) }
    list[entries.count] = nil
    return list
  }

  static func commonPrefix(_ values: [String]) -> String {
    guard var prefix = values.first else { return "" }
    for value in values.dropFirst() {
      while !value.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
  }

  /// Installs the handlers. SIGINT: clear the line, or cancel the command. SIGTERM, SIGHUP
  /// and crashes: restore the terminal, then die of the same signal.
  static func install(name: String) {
    guard !installed.exchange(true, ordering: .relaxed) else { return }
    deck_rl_configure(strdup(name), complete)
    signal(SIGINT) { _ in
      if Readline.commandRunning.load(ordering: .relaxed) {
        var byte: UInt8 = 1
        _ = write(Readline.interruptFD.load(ordering: .relaxed), &byte, 1)
      } else {
        deck_rl_clear_line()
      }
    }
    for fatal in [SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE] {
      signal(fatal) { number in
        deck_rl_restore_terminal()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  /// One line, or nil at end of input (Ctrl-D).
  static func readLine(prompt: String) -> String? {
    guard let pointer = readline(prompt) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }

  static func addToHistory(_ line: String) { add_history(line) }

  static var lastHistoryLine: String? { deck_history_line(0).map { String(cString: $0) } }

  /// The last `count` history lines, oldest first.
  static func recentHistory(_ count: Int) -> [String] {
    let total = Int(deck_history_length())
    return (0..<min(count, total)).reversed().compactMap { deck_history_line(Int32($0)).map { String(cString: $0) } }
  }
}
