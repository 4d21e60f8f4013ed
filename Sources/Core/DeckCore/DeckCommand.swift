import ArgumentParser
import DeckConfig

/// A deck command: a swift-argument-parser command that runs with the shared context.
///
/// Conforming types declare `@OptionGroup public var global: GlobalOptions` and implement
/// `run(_:)`. Thin commands: parse, validate, call a service, print through `context.output`.
public protocol DeckCommand: AsyncParsableCommand {
  var global: GlobalOptions { get }
  func run(_ context: DeckContext) async throws
}

extension DeckCommand {
  public mutating func run() async throws {
    guard let session = DeckSession.current else {
      fatalError("deck commands run through DeckRunner, which provides the session")
    }
    try await run(DeckContext(session: session, options: global))
  }
}

/// A feature module: how it registers with the core. Adding a module is one line in the
/// executable's registry (`Sources/deck/Registry.swift`).
public protocol DeckModule: SendableMetatype {
  /// The top-level command name, e.g. `brokerage`.
  static var name: String { get }
  static var summary: String { get }
  /// The backend services the module talks to (empty for local-only modules).
  static var services: [Service] { get }
  /// The module's top-level command trees (usually one, named like the module).
  static var commands: [any ParsableCommand.Type] { get }
  /// Dynamic completion providers the module's arguments use.
  static var completionProviders: [any CompletionProvider.Type] { get }
}

extension DeckModule {
  public static var completionProviders: [any CompletionProvider.Type] { [] }
}

/// The registered modules, and the root command's configuration built from them.
public struct DeckRegistry: Sendable {
  public let modules: [any DeckModule.Type]

  public init(_ modules: [any DeckModule.Type]) {
    self.modules = modules
  }

  public var commands: [any ParsableCommand.Type] { modules.flatMap { $0.commands } }

  public func module(named name: String) -> (any DeckModule.Type)? {
    modules.first { $0.name == name }
  }
}
