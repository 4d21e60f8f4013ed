import BrokerageModule
import DeckBuiltins
import DeckCore
import DeckREPL
import SandboxModule

/// Every module deck has. Adding a module is one line here.
enum Registry {
  static let modules: [any DeckModule.Type] = [
    EnvModule.self,
    AuthModule.self,
    BrokerageModule.self,
    SandboxModule.self,
    ShellModule.self,
  ]
}
