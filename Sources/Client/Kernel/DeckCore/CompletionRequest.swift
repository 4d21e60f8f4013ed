import ArgumentParser

/// The lines whose answer is a shell's completion (a request, or a completion script), told
/// from their words.
enum CompletionRequest {
  /// A shell's (or the REPL's) completion request: its answer is the output, not help.
  static func isCompletionRequest(_ arguments: [String]) -> Bool {
    arguments.first == "---completion"
  }

  /// argument-parser's `--generate-completion-script [SHELL]`: its answer is the script, and
  /// its value is no command name.
  static func isScriptRequest(_ arguments: [String]) -> Bool {
    arguments.contains { $0 == "--generate-completion-script" || $0.hasPrefix("--generate-completion-script=") }
  }

  /// The shell a completion-script request names (`--generate-completion-script bash` or
  /// `=bash`), or the one argument-parser detects when it names none.
  static func scriptShell(_ arguments: [String]) -> CompletionShell? {
    guard let at = arguments.firstIndex(where: { $0.hasPrefix("--generate-completion-script") }) else { return nil }
    let flag = arguments[at]
    if let equals = flag.firstIndex(of: "=") {
      return CompletionShell(rawValue: String(flag[flag.index(after: equals)...]))
    }
    if at + 1 < arguments.count, let named = CompletionShell(rawValue: arguments[at + 1]) { return named }
    return .autodetected()
  }
}
