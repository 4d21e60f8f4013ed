import ArgumentParser
import DeckSupport

/// Parses and runs one command line. One-shot mode, the REPL and script mode all come through
/// here, so a line behaves the same everywhere: same parser, output, errors and exit codes.
public enum DeckRunner {
  /// Runs `arguments` (without the program name) and returns the exit code. Never exits the process.
  public static func run<Root: ParsableCommand>(
    _ root: Root.Type, arguments: [String], session: DeckSession
  ) async -> Int32 {
    await run(root, parsed: parseLine(root, arguments: arguments, session: session), session: session)
  }

  /// A command line, parsed: answered already, to be answered, a plugin to run, or a command
  /// to run.
  public enum ParsedLine {
    /// Help, the version, a shell's completion request or a usage error, printed; the exit code.
    case answered(Int32)
    /// Help, the version, a shell's completion request or a usage error, as the parser threw
    /// it, not printed yet: `run(_:parsed:session:)` prints it.
    case unanswered(any Error, arguments: [String])
    case plugin(Plugins.Plugin, arguments: [String])
    case command(any ParsableCommand, arguments: [String])
  }

  /// Parses a line, and prints the answer to one that runs nothing (help, the version, a
  /// completion request, a usage error). Synchronous: a one-shot that asks for help is answered
  /// before any task starts.
  public static func parseLine<Root: ParsableCommand>(
    _ root: Root.Type, arguments: [String], session: DeckSession
  ) -> ParsedLine {
    let parsed = prepareLine(root, arguments: arguments, session: session)
    guard case .unanswered(let error, let arguments) = parsed else { return parsed }
    return .answered(LineErrorReport.report(error, root: root, arguments: arguments, session: session))
  }

  /// Parses a line and prints nothing: the answer to a line that runs nothing is left for
  /// `run(_:parsed:session:)`. Script mode parses a line ahead of time, while the one before
  /// it runs. Parsing reads nothing an earlier line can change: the words, argument-parser's
  /// parse and validation (pure checks of the words), and the plugins on PATH. A shell's
  /// completion request is the exception (its answer may ask the backend): script mode parses
  /// it in its turn.
  public static func prepareLine<Root: ParsableCommand>(
    _ root: Root.Type, arguments: [String], session: DeckSession
  ) -> ParsedLine {
    if let plugin = plugin(for: arguments, root: root, session: session) {
      return .plugin(plugin, arguments: Array(arguments.dropFirst()))
    }
    do {
      return .command(try LineParser.parse(root, LineParser.normalize(arguments)), arguments: arguments)
    } catch {
      return .unanswered(error, arguments: arguments)
    }
  }

  /// Runs a parsed line and returns the exit code.
  public static func run<Root: ParsableCommand>(
    _ root: Root.Type, parsed: ParsedLine, session: DeckSession
  ) async -> Int32 {
    switch parsed {
    case .answered(let code):
      return code
    case .unanswered(let error, let arguments):
      return LineErrorReport.report(error, root: root, arguments: arguments, session: session)
    case .plugin(let plugin, let arguments):
      do {
        let context = DeckContext(session: session, options: .defaults)
        return try await Plugins.run(plugin, arguments: arguments, context: context)
      } catch {
        return LineErrorReport.report(error, root: root, arguments: arguments, session: session)
      }
    case .command(var command, let arguments):
      do {
        try await DeckSession.$current.withValue(session) {
          if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
          } else {
            try command.run()
          }
        }
        return ExitCode.success
      } catch {
        return LineErrorReport.report(error, root: root, arguments: arguments, session: session)
      }
    }
  }
}
