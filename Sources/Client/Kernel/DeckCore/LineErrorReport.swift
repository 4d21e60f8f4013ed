import ArgumentParser
import DeckSupport

/// The one place a line's errors become exit codes: what an error from parsing or running a
/// line says, printed, and its exit code.
enum LineErrorReport {
  /// Prints what an error from parsing or running a line says, and returns its exit code: the
  /// one place a line's errors become exit codes.
  static func report<Root: ParsableCommand>(
    _ error: any Error, root: Root.Type, arguments: [String], session: DeckSession
  ) -> Int32 {
    if ErrorPresenter.owns(error) { return ErrorPresenter.present(error, output: session.output) }
    let code = root.exitCode(for: error).rawValue
    // A usage error, or help asked for a path that names no command: say which word is not a
    // command and what it may have meant. The whole tree (`_dumpHelp()`, every command
    // reflected) is built only when a word may be a mistyped command: not for plain `--help`,
    // a path of real commands, or a shell's completion request.
    if code == ExitCode.validationFailure.rawValue
      || (code == 0 && !CompletionRequest.isCompletionRequest(arguments)
        && !CompletionRequest.isScriptRequest(arguments)
        && !namesOnlyCommands(root, arguments)),
      let unknown = UsageHelp.unknownCommand(in: CommandTree.of(root), arguments: arguments)
    {
      return ErrorPresenter.present(unknown.error, output: session.output)
    }
    // Usage errors quote the words of the line, which may come from a script or a pipe:
    // Output strips their control characters.
    var message = root.fullMessage(for: error)
    if code == 0, CompletionRequest.isScriptRequest(arguments) {
      // The same script as `deck completion SHELL`.
      if let shell = CompletionRequest.scriptShell(arguments) {
        message = CompletionScripts.adjusted(message, for: shell)
      }
    } else if code == 0 {
      message = HelpText.fitting(HelpText.condensingGlobalOptions(message), columns: session.output.columns)
    }
    if !message.isEmpty {
      if code == 0 { session.output.line(message) } else { session.output.info(message) }
    }
    return code
  }

  /// Whether every word that stands where a subcommand belongs names one (a help request for
  /// a real path such as `brokerage search --help`), judged from the static configurations.
  /// False when unsure (a word that may be an option's value), and the caller asks the tree.
  static func namesOnlyCommands(_ root: any ParsableCommand.Type, _ arguments: [String]) -> Bool {
    var node = root
    var words = arguments[...]
    if words.first == "help" { words = words.dropFirst() }
    for word in words {
      if word == "--" { return true }
      if word.hasPrefix("-") { continue }
      if let next = LineParser.subcommand(of: node, named: word) {
        node = next
      } else {
        // A word after a command without subcommands is its argument; anything else may be a typo.
        return node.configuration.subcommands.isEmpty || word == "help"
      }
    }
    return true
  }
}
