import ArgumentParser
import DeckCore

/// `deck sandbox inspect`: each feature's `inspect` subcommands (``DeckModule/sandboxCommands``).
struct SandboxInspect: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "inspect", abstract: "Show what the sandbox stores, as an operator would check it.",
      discussion: HelpText.discussion(exits: SandboxOperator.exits + [.failure("what it names does not exist")]),
      subcommands: DeckRegistry.current.sandboxCommands.inspect)
  }
}
