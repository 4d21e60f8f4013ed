import BrokerageModule
import DeckBuiltins
import DeckCore
import DeckREPL
import KioskModule
import MbtiModule
import PrefsModule
import SandboxModule
import WorkspaceModule

/// Every module deck has, in order. Adding a feature is one line here (its `DeckModule`, the
/// commands) and one in the sandbox server's registry (Sources/Sandbox/SandboxApp).
public enum Registry {
  public static let modules = DeckRegistry([
    EnvModule.self,
    AuthModule.self,
    BrokerageModule.self,
    WorkspaceModule.self,
    KioskModule.self,
    MbtiModule.self,
    PrefsModule.self,
    SandboxModule.self,
    ShellModule.self,
    DoctorModule.self,
  ])
}
