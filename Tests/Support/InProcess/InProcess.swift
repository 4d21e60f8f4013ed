import ArgumentParser
import DeckApp
import DeckBuiltins
import DeckCore
import DeckLive
import Foundation
import SandboxApp
import SandboxKit
import Synchronization

/// Runs deck commands in this process, as gh's tests do with `runF`: a `DeckSession` built by
/// the test, with the live providers (the real HTTP transport) against a sandbox server that
/// the test runs in this process on a private database and an ephemeral loopback port (the
/// `local` environment, its URLs overridden), and stdout and stderr captured in buffers. No
/// binary is spawned, so parsing, output and errors are checked in milliseconds; the
/// end-to-end tests still run the binaries.
package final class InProcessDeck: Sendable {
  /// The root of the tree the tests run: every module, as the executable registers them.
  package struct Root: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
      commandName: "deck", subcommands: Registry.modules.commands)
    @OptionGroup package var global: GlobalOptions
    package init() {}
  }

  package struct Result {
    package var status: Int32
    package var stdout: String
    package var stderr: String
  }

  /// Text written to one stream.
  package final class Buffer: Sendable {
    package let text = Mutex("")
  }

  package let home: String
  private let out = Buffer()
  private let err = Buffer()
  package let session: DeckSession
  private let server: RunningSandbox
  /// The sandbox's admin token (for tests that check it is never printed).
  package var adminToken: String { server.adminToken }

  /// `extraEnvironment` adds to (or replaces) the session's variables, e.g. `DECK_QA_RUN`.
  package init(extraEnvironment: [String: String] = [:]) async throws {
    home = NSTemporaryDirectory() + "deck-inprocess-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    server = try await SandboxServer.start(
      SandboxOptions(databasePath: home + "/sandbox.sqlite"))
    var environment = [
      "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
      "XDG_DATA_HOME": home + "/data", "DECK_ENV": "local", "DECK_SANDBOX_ADMIN_TOKEN": server.adminToken,
    ]
    for variable in Registry.overrideVariables { environment[variable] = server.baseURL.absoluteString }
    environment.merge(extraEnvironment) { $1 }
    let out = out
    let err = err
    let output = Output(
      stdoutIsTerminal: false, stderrIsTerminal: false, colorEnabled: false,
      writeOut: { text in out.text.withLock { $0 += text } }, writeErr: { text in err.text.withLock { $0 += text } })
    session = DeckSession(
      processEnvironment: environment, providers: LiveProviders(), output: output,
      registry: Registry.modules)
    DynamicCompletion.register(session.registry.completionProviders)
  }

  deinit {
    let (server, home) = (server, home)
    Task {
      await server.stop()
      try? FileManager.default.removeItem(atPath: home)
    }
  }

  /// Runs one command line and returns its exit code and what it printed.
  package func run(_ arguments: [String]) async -> Result {
    out.text.withLock { $0 = "" }
    err.text.withLock { $0 = "" }
    let status = await DeckRunner.run(Root.self, arguments: arguments, session: session)
    return Result(status: status, stdout: out.text.withLock { $0 }, stderr: err.text.withLock { $0 })
  }
}
