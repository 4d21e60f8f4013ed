import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport

struct EnvUse: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "use", _superCommandName: "deck",
    abstract: "Make an environment the current one (saved in the config file).",
    discussion: HelpText.discussion(
      exits: [.failure("the config file cannot be read or written"), .usage("an unknown environment")]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The environment to use.", completion: EnvironmentNameArgument.completion)
  var name: String

  func run(_ context: DeckContext) async throws {
    let processEnvironment = context.session.processEnvironment
    try context.configStore.update { file in
      let resolver = EnvironmentResolver(file: file, processEnvironment: processEnvironment)
      guard resolver.definition(name) != nil else {
        throw DeckError.usage(
          "Unknown environment \"\(name)\".",
          hint:
            "Known environments: \(resolver.definitions.map(\.name).joined(separator: ", ")). Add one with: deck env add \(name) --from local"
        )
      }
      file.current = name
    }
    try context.output.emit(["current": name]) {
      context.output.info("Now using environment \"\(name)\".")
      if let variable = context.session.processEnvironment["DECK_ENV"], !variable.isEmpty, variable != name {
        context.output.info("Note: DECK_ENV=\(variable) is set and takes precedence in this shell.")
      }
    }
  }
}
