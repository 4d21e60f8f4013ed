import ArgumentParser
import DeckCore
import DeckSupport

/// The root command: its subcommands are the registered modules' command trees.
struct Deck: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "deck",
    abstract: "Drive the backends of the brokerage, workspace, kiosk, preferences and MBTI features.",
    discussion: """
      Environments: sandbox (the default, runs in-process), local (deck sandbox serve), dev, staging, \
      production, and any you add with `deck env add`.

      Exit codes: 0 ok, 1 failure, 64 usage error (nothing sent), 65 data rejected, 69 unavailable, \
      77 not authenticated or not allowed, 130 interrupted.
      """,
    version: DeckVersion.current,
    subcommands: Registry.shared.commands)

  @OptionGroup var global: GlobalOptions
}
