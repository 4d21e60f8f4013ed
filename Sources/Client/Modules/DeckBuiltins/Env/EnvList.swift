import ArgumentParser
import DeckConfig
import DeckCore

struct EnvList: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", _superCommandName: "deck", abstract: "List environments; * marks the current one.",
    discussion: HelpText.discussion(exits: [.failure("the config file cannot be read")]),
    aliases: ["ls"])

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let resolver = try context.resolver()
    let (current, _) = resolver.currentName(
      flag: context.options.env ?? context.session.sessionEnvironment.withLock { $0 })
    let views = resolver.definitions.map {
      EnvironmentView($0, current: $0.name == current, builtin: resolver.isBuiltin($0.name))
    }
    try context.output.emit(views) {
      context.output.table(
        ["", "NAME", "KIND", "SERVICES"],
        views.map { view in
          let kind =
            (view.embedded ? "local sandbox" : view.sandbox ? "sandbox" : view.builtin ? "built-in" : "custom")
            + (view.production ? ", production" : "")
          let services =
            view.embedded && view.services.isEmpty
            ? "all (started on demand)" : view.services.keys.sorted().joined(separator: ",")
          return [view.current ? "*" : "", view.name, kind, services.isEmpty ? "-" : services]
        })
    }
  }
}
