import ArgumentParser
import DeckCore

/// `deck sandbox trigger`: each feature's `trigger` subcommands (``DeckModule/sandboxCommands``).
struct SandboxTrigger: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "trigger", abstract: "Make things happen that a real backend gets from outside (webhooks).",
      discussion: HelpText.discussion(
        exits: SandboxOperator.exits + [
          .failure("what it names does not exist"), .rejected("what it makes exists already"),
        ]),
      subcommands: DeckRegistry.current.sandboxCommands.trigger)
  }
}
