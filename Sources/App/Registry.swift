import BrokerageModule
import BrokerageSandbox
import DeckBuiltins
import DeckCore
import DeckREPL
import KioskModule
import KioskSandbox
import MbtiModule
import MbtiSandbox
import PrefsModule
import PrefsSandbox
import SandboxKit
import SandboxModule
import WorkspaceModule
import WorkspaceSandbox

/// Every module deck has, in order. Adding a feature is one line here: its `DeckModule` (the
/// commands) and its `SandboxFeature` (its part of the sandbox server).
public enum Registry {
  static let entries: [Entry] = [
    Entry(EnvModule.self),
    Entry(AuthModule.self),
    Entry(BrokerageModule.self, sandbox: BrokerageSandbox.self),
    Entry(WorkspaceModule.self, sandbox: WorkspaceSandbox.self),
    Entry(KioskModule.self, sandbox: KioskSandbox.self),
    Entry(MbtiModule.self, sandbox: MbtiSandbox.self),
    Entry(PrefsModule.self, sandbox: PrefsSandbox.self),
    Entry(SandboxModule.self),
    Entry(ShellModule.self),
    Entry(DoctorModule.self),
  ]

  /// The command modules: the root command's subcommands, completion providers, services.
  public static let modules = DeckRegistry(entries.map(\.module))
  /// The sandbox server's features, in the same order.
  package static let sandboxFeatures: [any SandboxFeature.Type] = entries.compactMap(\.sandbox)

  struct Entry {
    let module: any DeckModule.Type
    let sandbox: (any SandboxFeature.Type)?

    init(_ module: any DeckModule.Type, sandbox: (any SandboxFeature.Type)? = nil) {
      self.module = module
      self.sandbox = sandbox
    }
  }
}
