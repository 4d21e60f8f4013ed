import ArgumentParser
import DeckConfig
import DeckSupport
import Dispatch
import FoundationEssentials
import Synchronization

/// A source of dynamic completion values (brokerage names, accounts, …). The same provider
/// serves the REPL and the bash, zsh and fish scripts (through swift-argument-parser's
/// `---completion` callback).
public protocol CompletionProvider: Sendable {
  static var id: String { get }
  /// Values for the word being completed. Runs under a time budget; throwing offers nothing.
  static func values(prefix: String, context: DeckContext) async throws -> [String]
}

/// Runs completion providers synchronously (the argument parser's completion closures are
/// synchronous) under a time budget, so a slow or dead backend never freezes a prompt.
public enum DynamicCompletion {
  /// How long one lookup may take.
  public static let budget: Duration = .milliseconds(300)

  private static let cache = Mutex<[String: (values: [String], at: ContinuousClock.Instant)]>([:])
  private static let cacheLifetime: Duration = .seconds(10)

  /// Values from `provider` for `prefix`, or nothing when it fails or runs out of time.
  public static func values(_ provider: any CompletionProvider.Type, prefix: String) -> [String] {
    let key = "\(provider.id)\u{0}\(prefix)"
    let now = ContinuousClock.now
    if let hit = cache.withLock({ $0[key] }), now - hit.at < cacheLifetime { return hit.values }
    guard let session = DeckSession.current ?? CompletionSession.make() else { return [] }
    let found = Budgeted.run(within: budget) {
      try await provider.values(prefix: prefix, context: DeckContext(session: session, options: .defaults))
    }
    // A failure offers nothing and is not cached; running out of time is not cached either.
    // Values (often a server's) lose their control characters: a shell reads them line by
    // line and a terminal shows them.
    guard let values = found?.map({ TerminalText.sanitize($0) }).filter({ !$0.isEmpty }) else { return [] }
    cache.withLock { $0[key] = (values, now) }
    return values
  }
}

extension DynamicCompletion {
  private static let registered = Mutex<[String: any CompletionProvider.Type]>([:])

  /// Makes the modules' providers available by id (the executable does this at start-up), so
  /// a feature can complete another feature's values without depending on it.
  public static func register(_ providers: [any CompletionProvider.Type]) {
    registered.withLock { table in
      for provider in providers { table[provider.id] = provider }
    }
  }

  /// The completion kind for the provider registered under `id` (nothing while none is).
  public static func kind(_ id: String) -> CompletionKind {
    .custom { _, _, prefix in
      guard let provider = registered.withLock({ $0[id] }) else { return [] }
      let environment = ProcessInfo.processInfo.environment
      let typed = CompletionWord.typed(
        prefix, shell: environment["SAP_SHELL"], shellVersion: environment["SAP_SHELL_VERSION"])
      return values(provider, prefix: typed)
    }
  }
}

/// The word being completed, as the user means it. A shell's completion script passes the
/// word as it was typed: bash and zsh with its quotes and backslashes (`Keller\ Williams\ R`,
/// `"Keller Wi`), fish 4 too (`--tokens-raw`); fish 3 passes it unquoted already, and so does
/// the REPL (no `SAP_SHELL`). Providers get the text without the shell's quoting.
public enum CompletionWord {
  public static func typed(_ word: String, shell: String?, shellVersion: String?) -> String {
    switch shell {
    case "bash", "zsh": unquoted(word)
    case "fish":
      (shellVersion?.split(separator: ".").first.flatMap { Int($0) } ?? 0) > 3 ? unquoted(word) : word
    default: word
    }
  }

  /// `word` without its quotes and backslashes; an unclosed quote is fine (it is being typed).
  static func unquoted(_ word: String) -> String {
    ShellWords.partial(word).current
  }
}

/// The session used for completion callbacks from a shell (`deck ---completion …`), set up by
/// the executable before it parses.
public enum CompletionSession {
  private static let factory = Mutex<(@Sendable () -> DeckSession)?>(nil)

  public static func register(_ make: @escaping @Sendable () -> DeckSession) {
    factory.withLock { $0 = make }
  }

  static func make() -> DeckSession? { factory.withLock { $0 }?() }
}

/// Environment names, for `--env` and `deck env …`.
public enum EnvironmentCompletion {
  public static func names(prefix: String) -> [String] {
    let environment = ProcessEnvironment.current()
    let store = ConfigStore(path: DeckPaths(environment: environment).configFile)
    let file = (try? store.load()) ?? ConfigFile()
    let resolver = EnvironmentResolver(file: file, processEnvironment: environment)
    return resolver.definitions.map(\.name).filter { $0.hasPrefix(prefix) }
  }
}
