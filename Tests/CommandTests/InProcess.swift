import ArgumentParser
import BrokerageModule
import DeckApp
import DeckBuiltins
import DeckCore
import DeckLive
import Foundation
import MbtiModule
import PrefsModule
import Synchronization

/// Runs deck commands in this process, as gh's tests do with `runF`: a `DeckSession` built by
/// the test, with the live providers (the embedded sandbox on a private database, the real
/// HTTP transport) and stdout and stderr captured in buffers. No binary is spawned, so parsing,
/// output and errors are checked in milliseconds; the end-to-end tests still run the binary.
final class InProcessDeck: Sendable {
  /// The root of the tree the tests run: the modules under test, as the executable registers them.
  struct Root: AsyncParsableCommand {
    static let modules: [any DeckModule.Type] = [
      EnvModule.self, AuthModule.self, BrokerageModule.self, MbtiModule.self, PrefsModule.self,
    ]
    static let configuration = CommandConfiguration(
      commandName: "deck", subcommands: DeckRegistry(modules).commands)
    @OptionGroup var global: GlobalOptions
  }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Text written to one stream.
  final class Buffer: Sendable {
    let text = Mutex("")
  }

  let home: String
  private let out = Buffer()
  private let err = Buffer()
  let session: DeckSession

  init() throws {
    home = NSTemporaryDirectory() + "deck-inprocess-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let out = out
    let err = err
    let output = Output(
      stdoutIsTerminal: false, stderrIsTerminal: false, colorEnabled: false,
      writeOut: { text in out.text.withLock { $0 += text } }, writeErr: { text in err.text.withLock { $0 += text } })
    session = DeckSession(
      processEnvironment: [
        "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
        "XDG_DATA_HOME": home + "/data",
      ],
      providers: LiveProviders(sandboxFeatures: Registry.sandboxFeatures), output: output,
      registry: DeckRegistry(Root.modules))
    DynamicCompletion.register(session.registry.completionProviders)
  }

  deinit { try? FileManager.default.removeItem(atPath: home) }

  /// Runs one command line and returns its exit code and what it printed.
  func run(_ arguments: [String]) async -> Result {
    out.text.withLock { $0 = "" }
    err.text.withLock { $0 = "" }
    let status = await DeckRunner.run(Root.self, arguments: arguments, session: session)
    return Result(status: status, stdout: out.text.withLock { $0 }, stderr: err.text.withLock { $0 })
  }
}
