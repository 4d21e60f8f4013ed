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
  public static let modules = assembled(features: FeatureRegistry.modules)

  /// The built-in modules with `features` between them, in deck's order (the core's tests
  /// assemble it with a fixture feature instead of deck's).
  public static func assembled(features: [any DeckModule.Type]) -> DeckRegistry {
    DeckRegistry(
      [EnvModule.self, AuthModule.self] + features + [
        SandboxModule.self, ShellModule.self, DoctorModule.self, ContractModule.self, QAModule.self,
      ])
  }
}
