import ArgumentParser
import DeckApp
import DeckBuiltins
import DeckConfig
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

  /// The root of the core tests' tree: the built-in modules and the fixture feature
  /// (``FixtureModule``), no product feature.
  package struct FixtureRoot: AsyncParsableCommand {
    static let registry = Registry.assembled(features: [FixtureModule.self])
    package static let configuration = CommandConfiguration(commandName: "deck", subcommands: registry.commands)
    @OptionGroup package var global: GlobalOptions
    package init() {}
  }

  /// What a harness runs: the client's modules (and the root command over them) and the
  /// server's feature parts.
  package struct Features: Sendable {
    let registry: DeckRegistry
    let server: [any SandboxFeature.Type]
    let run: @Sendable ([String], DeckSession) async -> Int32

    /// Every module and every part of the sandbox deck registers.
    package static let deck = Features(registry: Registry.modules, server: SandboxRegistry.features) {
      await DeckRunner.run(Root.self, arguments: $0, session: $1)
    }

    /// The built-in modules and the fixture feature, on both sides: what the core's tests run.
    package static let fixture = Features(registry: FixtureRoot.registry, server: [FixtureServer.self]) {
      await DeckRunner.run(FixtureRoot.self, arguments: $0, session: $1)
    }
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
  private let features: Features
  /// The sandbox's admin token (for tests that check it is never printed).
  package var adminToken: String { server.adminToken }

  /// `features`: deck's, or the fixture's. `extraEnvironment` adds to (or replaces) the
  /// session's variables, e.g. `DECK_QA_RUN`.
  package init(features: Features = .deck, extraEnvironment: [String: String] = [:]) async throws {
    self.features = features
    home = NSTemporaryDirectory() + "deck-inprocess-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    server = try await SandboxServer.start(
      SandboxOptions(databasePath: home + "/sandbox.sqlite", features: features.server))
    var environment = [
      "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
      "XDG_DATA_HOME": home + "/data", "DECK_ENV": "local", "DECK_SANDBOX_ADMIN_TOKEN": server.adminToken,
    ]
    // Every service of deck's and of the fixture's, whichever this session runs: the catalog of
    // services is the process's (ServiceCatalog), so a command that goes through them all
    // (`deck doctor`) meets those other sessions of the test process registered too.
    for service in Features.deck.registry.services + Features.fixture.registry.services {
      environment[service.overrideVariable] = server.baseURL.absoluteString
    }
    environment.merge(extraEnvironment) { $1 }
    let out = out
    let err = err
    let output = Output(
      stdoutIsTerminal: false, stderrIsTerminal: false, colorEnabled: false,
      writeOut: { text in out.text.withLock { $0 += text } }, writeErr: { text in err.text.withLock { $0 += text } })
    session = DeckSession(
      processEnvironment: environment, providers: LiveProviders(), output: output,
      registry: features.registry)
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
    let status = await features.run(arguments, session)
    return Result(status: status, stdout: out.text.withLock { $0 }, stderr: err.text.withLock { $0 })
  }
}
