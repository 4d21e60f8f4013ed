import ArgumentParser
import DeckCore
import DeckSupport

/// The root command: its subcommands are the registered modules' command trees.
public struct Deck: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "deck",
    abstract: "Drive the backends of deck's features: \(HelpText.list(FeatureRegistry.modules.map { $0.name })).",
    discussion: HelpText.discussion(
      """
      Environments: sandbox (the default: a local sandbox deck starts on demand), local (deck sandbox serve), dev, staging,
      production, and any you add with `deck env add`.
      """,
      exits: ExitDoc.all),
    // The version and the commit it was built from: "0.1.0 (commit 1a2b3c4d5e6f)" (BuildCommit).
    version: "\(DeckVersion.current) (\(BuildCommit.description))",
    subcommands: Registry.modules.commands)

  @OptionGroup var global: GlobalOptions

  public init() {}
}
