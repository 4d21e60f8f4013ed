import ArgumentParser
import DeckApp
import DeckCore

/// deck's command tree as the registry builds it: the one list of commands, so a sweep over it
/// takes in every command a module adds.
package enum CommandTree {
  /// Every command without subcommands, as its words after `deck` (`["prefs", "get"]`).
  package static var leaves: [[String]] {
    func walk(_ command: any ParsableCommand.Type, _ path: [String]) -> [[String]] {
      let subcommands = command.configuration.subcommands
      return subcommands.isEmpty ? [path] : subcommands.flatMap { walk($0, path + [$0._commandName]) }
    }
    // Trees that gather other modules' commands (`sandbox inspect`) read the installed registry.
    DeckRegistry.install(Registry.modules)
    return walk(Deck.self, [])
  }
}
