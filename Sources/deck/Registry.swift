import BrokerageModule
import DeckBuiltins
import DeckCore
import DeckREPL
import KioskModule
import MbtiModule
import SandboxModule
import WorkspaceModule

/// Every module deck has. Adding a module is one line here.
enum Registry {
  static let shared = DeckRegistry(modules)

  private static let modules: [any DeckModule.Type] = [
    EnvModule.self,
    AuthModule.self,
    BrokerageModule.self,
    WorkspaceModule.self,
    KioskModule.self,
    MbtiModule.self,
    SandboxModule.self,
    ShellModule.self,
    DoctorModule.self,
  ]
}
