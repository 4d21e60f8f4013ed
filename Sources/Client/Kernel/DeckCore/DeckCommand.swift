import ArgumentParser
import DeckConfig
import Synchronization

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

/// A module (a feature, or a built-in group such as `env`): how it registers with the core.
/// Adding a module is one line in the executable's registry (`Sources/Client/App/Registry.swift`);
/// everything else the core learns about it comes from these members.
public protocol DeckModule: SendableMetatype {
  /// The module's name, e.g. `brokerage` (`deck env show` names the modules behind each service).
  static var name: String { get }
  /// The backend services the module talks to (empty for local-only modules): it declares
  /// them, with their default URLs (`Service`); the core knows no feature's service.
  static var services: [Service] { get }
  /// The module's top-level command trees (usually one, named like the module): the root
  /// command's subcommands.
  static var commands: [any ParsableCommand.Type] { get }
  /// Dynamic completion providers the module owns, registered by id at start-up so that any
  /// argument (of this module or another) can complete through them.
  static var completionProviders: [any CompletionProvider.Type] { get }
  /// The module's operator commands for its part of the sandbox: `deck sandbox inspect …`,
  /// `deck sandbox trigger …` and any others under `deck sandbox`.
  static var sandboxCommands: SandboxCommands { get }
}

extension DeckModule {
  public static var services: [Service] { [] }
  public static var completionProviders: [any CompletionProvider.Type] { [] }
  public static var sandboxCommands: SandboxCommands { SandboxCommands() }
}

/// A module's commands under `deck sandbox`, which gathers them from every registered module.
public struct SandboxCommands: Sendable {
  /// Subcommands of `deck sandbox inspect` (what the feature's part of the sandbox stores).
  public var inspect: [any ParsableCommand.Type]
  /// Subcommands of `deck sandbox trigger` (events a real backend gets from outside).
  public var trigger: [any ParsableCommand.Type]
  /// Other subcommands of `deck sandbox` (e.g. `outbox`).
  public var other: [any ParsableCommand.Type]

  public init(
    inspect: [any ParsableCommand.Type] = [], trigger: [any ParsableCommand.Type] = [],
    other: [any ParsableCommand.Type] = []
  ) {
    self.inspect = inspect
    self.trigger = trigger
    self.other = other
  }
}

/// The registered modules: the root command's subcommands, the completion providers and which
/// module uses which service all come from here.
public struct DeckRegistry: Sendable {
  public let modules: [any DeckModule.Type]

  public init(_ modules: [any DeckModule.Type]) {
    self.modules = modules
  }

  public var commands: [any ParsableCommand.Type] { modules.flatMap { $0.commands } }

  public var completionProviders: [any CompletionProvider.Type] { modules.flatMap { $0.completionProviders } }

  /// Every module's `deck sandbox` commands, in registry order.
  public var sandboxCommands: SandboxCommands {
    modules.map { $0.sandboxCommands }.reduce(into: SandboxCommands()) { all, module in
      all.inspect += module.inspect
      all.trigger += module.trigger
      all.other += module.other
    }
  }

  private static let installed = Mutex(DeckRegistry([]))

  /// The registry deck runs with: set once at start-up, before any parsing, for command trees
  /// that gather other modules' commands (`deck sandbox inspect`). Argument-parser
  /// configurations are static, so they read it here.
  public static var current: DeckRegistry { installed.withLock { $0 } }

  /// Makes `registry` the ``current`` one, and its services known (`ServiceCatalog`).
  public static func install(_ registry: DeckRegistry) {
    ServiceCatalog.register(registry.services)
    installed.withLock { $0 = registry }
  }

  /// The services the modules declare, in registry order (one per name).
  public var services: [Service] {
    modules.flatMap { $0.services }.reduce(into: []) { all, service in
      if !all.contains(service) { all.append(service) }
    }
  }

  /// The names of the modules that talk to `service`, in registry order.
  public func modules(using service: Service) -> [String] {
    modules.filter { $0.services.contains(service) }.map { $0.name }
  }
}
