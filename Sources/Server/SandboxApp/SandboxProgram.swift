import ArgumentParser
import DeckSupport
import Foundation

/// `deck-sandbox`: the sandbox server program. `deck sandbox serve` runs it in the foreground;
/// deck starts it on demand, detached, for the default environment (docs/ARCHITECTURE.md).
public struct SandboxProgram: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "deck-sandbox",
    abstract: "The deck sandbox: every backend contract of deck's features on one SQLite database.",
    discussion: """
      deck starts this program by itself for its default environment, and `deck sandbox \
      serve` runs it for other clients.

      Exit codes:
        0    stopped (Ctrl-C, SIGTERM or the idle timeout)
        1    it could not start (a taken port, an unusable database)
        64   usage error
      """,
    // The version and the commit it was built from: "0.1.0 (commit 1a2b3c4d5e6f)" (BuildCommit).
    version: "\(DeckVersion.current) (\(BuildCommit.description))",
    subcommands: [Serve.self, DatabaseInfo.self],
    defaultSubcommand: Serve.self)

  public init() {}
}

extension SandboxProgram {
  /// Parses the command line, runs the command, and exits with its code (usage errors 64).
  public static func run(_ arguments: some Sequence<String>) async -> Never {
    do {
      var command = try parseAsRoot(Array(arguments))
      if var asynchronous = command as? any AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
      exit()
    } catch {
      exit(withError: error)
    }
  }
}
