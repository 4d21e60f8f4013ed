import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport

struct EnvAdd: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", _superCommandName: "deck",
    abstract: "Add an environment: empty, copied from another one, or pointed at one sandbox.",
    discussion: HelpText.discussion(
      """
      --sandbox URL makes a sandbox environment with every service (\(Service.allCases.map(\.rawValue).joined(separator: ", "))) at URL,
      in one step. When URL is a sandbox you started on this machine (`deck sandbox serve`, or the
      local sandbox), deck checks that it answers and saves its admin token with the environment;
      otherwise it says how to give the token (deck env set NAME sandbox-admin-token=TOKEN).
      --from copies a production environment's mark too: the copy is production (see deck env set).
      """,
      exits: [
        .failure("the config file cannot be read or written"),
        .usage(
          "a bad name or URL, an environment that exists, an unknown --from, or both --from and --sandbox (nothing was changed)"
        ),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The new environment's name.")
  var name: String

  @Option(
    help: "Copy the service URLs and settings of this environment.", completion: EnvironmentNameArgument.completion)
  var from: String?

  @Option(
    help: ArgumentHelp(
      "Point every service at this sandbox's URL, and save its admin token when it is yours.", valueName: "url"))
  var sandbox: String?

  func validate() throws {
    if from != nil && sandbox != nil {
      throw ValidationError("Give --from or --sandbox, not both.")
    }
  }

  func run(_ context: DeckContext) async throws {
    try URLPolicy.validateName(name)
    let processEnvironment = context.session.processEnvironment
    // The sandbox's URL is checked, and its admin token looked for, before the file is locked.
    var token: SandboxAdminTokenFinder.Outcome?
    var sandboxURL: String?
    if let sandbox {
      let url = sandbox.hasSuffix("/") ? String(sandbox.dropLast()) : sandbox
      for service in Service.allCases {
        try URLPolicy.validate(url, service: service, environment: name, allowInsecureHTTP: false)
      }
      sandboxURL = url
      token = SandboxAdminTokenFinder.live(session: context.session, file: try context.configStore.load()).find(
        url: url)
    }
    // Read, check and write under the config file's lock: parallel `env add`s all keep theirs.
    let file = try context.configStore.update { file in
      let resolver = EnvironmentResolver(file: file, processEnvironment: processEnvironment)
      guard resolver.definition(name) == nil else {
        throw DeckError.usage(
          "Environment \"\(name)\" already exists.", hint: "Change it with: deck env set \(name) SERVICE=URL")
      }
      var entry = ConfigFile.Entry()
      if let sandboxURL {
        entry = ConfigFile.Entry(
          urls: Dictionary(uniqueKeysWithValues: Service.allCases.map { ($0, sandboxURL) }), isSandbox: true)
        if case .found(let candidate) = token { entry.sandboxAdminToken = candidate.token }
      }
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
        // A copy of a production environment is production: the mark goes with the URLs.
        entry = ConfigFile.Entry(
          urls: source.urls, allowInsecureHTTP: source.allowInsecureHTTP ? true : nil,
          isSandbox: source.isSandbox ? true : nil, isProduction: source.isProduction ? true : nil)
      }
      file.setEntry(name, entry)
      return file
    }
    let message =
      if let sandboxURL {
        "Added sandbox environment \"\(name)\": every service at \(sandboxURL). Use it with: deck env use \(name)"
      } else {
        "Added environment \"\(name)\"\(from.map { " (copied from \($0))" } ?? ""). Set its URLs with: deck env set \(name) SERVICE=URL"
      }
    try context.output.emit(
      EnvironmentView(
        EnvironmentResolver(file: file, processEnvironment: [:]).definition(name) ?? EnvironmentDefinition(name: name),
        current: false, builtin: false),
      message: message)
    if let token { SandboxPointing.tell(token, environment: name, output: context.output) }
  }
}
