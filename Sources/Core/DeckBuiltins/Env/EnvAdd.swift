import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport

struct EnvAdd: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", _superCommandName: "deck", abstract: "Add an environment, empty or copied from another one.",
    discussion: HelpText.discussion(
      exits: [
        .failure("the config file cannot be read or written"),
        .usage("a bad name, an environment that exists, or an unknown --from (nothing was changed)"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The new environment's name.")
  var name: String

  @Option(
    help: "Copy the service URLs and settings of this environment.", completion: EnvironmentNameArgument.completion)
  var from: String?

  func run(_ context: DeckContext) async throws {
    try URLPolicy.validateName(name)
    let processEnvironment = context.session.processEnvironment
    // Read, check and write under the config file's lock: parallel `env add`s all keep theirs.
    let file = try context.configStore.update { file in
      let resolver = EnvironmentResolver(file: file, processEnvironment: processEnvironment)
      guard resolver.definition(name) == nil else {
        throw DeckError.usage(
          "Environment \"\(name)\" already exists.", hint: "Change it with: deck env set \(name) SERVICE=URL")
      }
      var entry = ConfigFile.Entry()
      if let from {
        guard let source = resolver.definition(from) else {
          throw DeckError.usage("Unknown environment \"\(from)\" in --from.")
        }
        guard !source.isManaged else {
          throw DeckError.usage(
            "\"\(from)\" is the local sandbox, which has no URLs to copy.",
            hint:
              "Copy `local` (the served sandbox, see `deck sandbox serve`) instead: deck env add \(name) --from local"
          )
        }
        entry = ConfigFile.Entry(
          urls: source.urls, allowInsecureHTTP: source.allowInsecureHTTP ? true : nil,
          isSandbox: source.isSandbox ? true : nil)
      }
      file.setEntry(name, entry)
      return file
    }
    try context.output.emit(
      EnvironmentView(
        EnvironmentResolver(file: file, processEnvironment: [:]).definition(name) ?? EnvironmentDefinition(name: name),
        current: false, builtin: false),
      message:
        "Added environment \"\(name)\"\(from.map { " (copied from \($0))" } ?? ""). Set its URLs with: deck env set \(name) SERVICE=URL"
    )
  }
}
