import ArgumentParser
import DeckApp
import DeckCore

/// deck's command tree as the registry builds it: the one list of commands, so a sweep over it
/// takes in every command a module adds.
package enum CommandTree {
  /// Every command without subcommands, as its words after `deck` (`["prefs", "get"]`).
  package static var leaves: [[String]] { all.filter(\.isLeaf).map(\.words) }

  /// Every command under the root (groups too), as its words after `deck`.
  package static var commands: [[String]] { all.map(\.words) }

  private static var all: [(words: [String], isLeaf: Bool)] {
    func walk(_ command: any ParsableCommand.Type, _ path: [String]) -> [(words: [String], isLeaf: Bool)] {
      let subcommands = command.configuration.subcommands
      let mine = path.isEmpty ? [] : [(words: path, isLeaf: subcommands.isEmpty)]
      return mine + subcommands.flatMap { walk($0, path + [$0._commandName]) }
    }
    // Trees that gather other modules' commands (`sandbox inspect`) read the installed registry.
    DeckRegistry.install(Registry.modules)
    return walk(Deck.self, [])
  }
}
