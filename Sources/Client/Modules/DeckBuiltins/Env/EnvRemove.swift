import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport

struct EnvRemove: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove", _superCommandName: "deck", abstract: "Remove an environment you added.",
    discussion: HelpText.discussion(
      exits: [.failure("the config file cannot be read or written"), .usage("a built-in or unknown environment")]),
    aliases: ["rm"])

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The environment to remove.", completion: EnvironmentNameArgument.completion)
  var name: String

  func run(_ context: DeckContext) async throws {
    let wasCurrent = try context.configStore.update { file in
      if BuiltinEnvironments.named(name) != nil {
        throw DeckError.usage(
          "\"\(name)\" is a built-in environment and cannot be removed.",
          hint: file.entry(name) != nil
            ? "To drop your changes to it, unset them: deck env set \(name) SERVICE="
            : "Use another one with: deck env use NAME")
      }
      guard file.entry(name) != nil else {
        throw DeckError.usage("Unknown environment \"\(name)\".", hint: "See them with: deck env list")
      }
      file.removeEntry(name)
      let wasCurrent = file.current == name
      if wasCurrent { file.current = nil }
      return wasCurrent
    }
    try context.output.emit(
      ["removed": name],
      message: "Removed environment \"\(name)\".\(wasCurrent ? " It was current; deck now uses `sandbox`." : "")")
  }
}
