import ArgumentParser
import DeckCore

/// `deck sandbox inspect`: each feature's `inspect` subcommands (``DeckModule/sandboxCommands``).
struct SandboxInspect: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "inspect", abstract: "Show what the sandbox stores, as an operator would check it.",
      subcommands: DeckRegistry.current.sandboxCommands.inspect)
  }
}
