import ArgumentParser
import Synchronization

/// Which lines run a plugin: a first word that names a program `deck-WORD` on PATH and no
/// command of the root (the root's commands win).
extension DeckRunner {
  /// The plugin the line's first word names, if no command of the root has that name.
  static func plugin<Root: ParsableCommand>(for arguments: [String], root: Root.Type, session: DeckSession)
    -> Plugins.Plugin?
  {
    guard let name = arguments.first, !name.hasPrefix("-"), !builtinNames(root).contains(name) else { return nil }
    return Plugins.discover(path: session.processEnvironment["PATH"], builtins: []).first { $0.name == name }
  }

  /// The names (and aliases) of the root's subcommands: they win over plugins.
  public static func builtinNames<Root: ParsableCommand>(_ root: Root.Type) -> Set<String> {
    let key = ObjectIdentifier(root)
    if let names = builtinNameCache.withLock({ $0[key] }) { return names }
    var names: Set<String> = ["help"]
    for command in root.configuration.subcommands {
      names.insert(command._commandName)
      names.formUnion(command.configuration.aliases)
    }
    builtinNameCache.withLock { $0[key] = names }
    return names
  }

  /// The names under each root, built once: a command's configuration may be computed (the
  /// sandbox's lists the registry's commands), and script mode asks for every line.
  private static let builtinNameCache = Mutex<[ObjectIdentifier: Set<String>]>([:])
}
