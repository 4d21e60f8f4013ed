import DeckBuiltins
import DeckContract
import DeckCore
import DeckQA
import DeckREPL
import SandboxModule

/// Every module deck has, in order: the built-in ones, and between them the features, which come
/// from Package.swift's `features` list (FeatureRegistry, generated at build time). Adding a
/// feature is its folder and one line in that list.
public enum Registry {
  public static let modules = DeckRegistry(
    [EnvModule.self, AuthModule.self] + FeatureRegistry.modules + [
      SandboxModule.self, ShellModule.self, DoctorModule.self, ContractModule.self, QAModule.self,
    ])
}
