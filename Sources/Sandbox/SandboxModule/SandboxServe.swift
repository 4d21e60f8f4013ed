import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport
import Foundation

struct SandboxServe: ForegroundCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve", _superCommandName: "deck", abstract: "Serve the sandbox on loopback until Ctrl-C.",
    discussion: """
      Other clients (and `deck --env local`) can then use it at http://127.0.0.1:8787.
      --port 0 picks a free port. The first line on stdout is the URL it listens on; the second
      is sandbox-admin-token=TOKEN, the bearer token its operator endpoints (/__sandbox) need.
      The token belongs to the database (a reset keeps it). serve saves it in config.yml for the
      sandbox environments whose URL is the one it listens on (`local` for the defaults), so
      `deck --env local sandbox …` works at once; for another environment:
      deck env set NAME sandbox-admin-token=TOKEN, or export DECK_SANDBOX_ADMIN_TOKEN=TOKEN.
      A later line, sandbox-anon-key=KEY, gives the auth service's anon key (the Supabase
      clients' apikey).
      """)

  @OptionGroup var global: GlobalOptions

  @Option(help: "The address to listen on; anything but loopback needs --allow-remote.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on (0 for any free port).")
  var port = 8787

  @Option(
    help: ArgumentHelp("The SQLite database file (default: the embedded sandbox's).", valueName: "path"),
    completion: .file())
  var db: String?

  @Flag(help: "Listen on a non-loopback --host: anyone who can reach it can use the sandbox's APIs.")
  var allowRemote = false

  @Option(
    help: ArgumentHelp(
      "The base URL of the links the sandbox hands out (checkout, join), when clients reach it by another name.",
      valueName: "url"))
  var publicURL: String?

  @Option(help: .hidden)
  var accessTokenTTL = 3600

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port).") }
    guard accessTokenTTL > 0 else { throw ValidationError("--access-token-ttl must be positive.") }
    if let publicURL, ParsedURL(publicURL) == nil || publicURL.contains("?") || publicURL.contains("#") {
      throw ValidationError("--public-url must be an absolute http(s) URL such as http://sandbox.test:8787.")
    }
  }

  func run(_ context: DeckContext) async throws {
    if !URLPolicy.isLoopback(host), !allowRemote {
      throw DeckError.usage(
        "Refusing to serve the sandbox on \(host), which is not a loopback address: anyone who can reach it could use its APIs and demo account.",
        hint: "Serve on loopback (--host 127.0.0.1), or add --allow-remote if that is what you want.")
    }
    if !URLPolicy.isLoopback(host) {
      context.output.info(
        "warning: listening on \(host), not loopback: anyone who can reach this machine can use the sandbox's APIs and its demo account; the operator endpoints need the admin token."
      )
    }
    let request = SandboxServeRequest(
      host: host, port: port, databasePath: db ?? context.paths.sandboxDatabase, accessTokenTTL: accessTokenTTL,
      publicURL: publicURL)
    let output = context.output
    let store = context.configStore
    try await context.session.providers.serveSandbox(request) { served in
      let (url, token) = (served.url, served.adminToken)
      output.line(url.absoluteString)
      output.line("\(ConfigFile.sandboxAdminTokenKey)=\(token)")
      // The auth service's apikey, for the Supabase clients (public by design, as a project's anon key).
      output.line("sandbox-anon-key=\(served.anonKey)")
      output.info(
        "deck sandbox listening on \(url.absoluteString) (database \(request.databasePath)); Ctrl-C stops it.")
      let saved: [String]
      do {
        saved = try Self.saveToken(token, for: url.absoluteString, store: store)
      } catch {
        saved = []
        output.info("Could not save the admin token in \(store.path): \(ErrorPresenter.deckError(for: error).message)")
      }
      if saved.isEmpty {
        output.info(
          "The second line is the admin token of the operator endpoints; store it with: deck env set NAME sandbox-admin-token=TOKEN"
        )
      } else {
        let names = saved.map { "\"\($0)\"" }.joined(separator: ", ")
        output.info("Saved the admin token for environment\(saved.count == 1 ? "" : "s") \(names) (\(store.path)).")
      }
    }
  }

  /// Writes the token (atomically) into the config entries of the sandbox environments whose
  /// flyr URL is `url`, and returns their names. Never touches a file it cannot parse.
  static func saveToken(_ token: String, for url: String, store: ConfigStore) throws -> [String] {
    guard let wanted = origin(url) else { return [] }
    func matching(_ file: ConfigFile) -> [String] {
      EnvironmentResolver(file: file, processEnvironment: [:]).definitions.filter { definition in
        guard definition.isSandbox, !definition.isEmbedded, let flyr = definition.urls[.flyr] else { return false }
        return origin(flyr) == wanted
      }.map(\.name)
    }
    // Nothing to change: leave the file (or its absence) as it is.
    let current = try store.load()
    guard matching(current).contains(where: { current.entry($0)?.sandboxAdminToken != token }) else {
      return matching(current)
    }
    // Read, change and write under the config file's lock, as every other writer does.
    return try store.update { file in
      let names = matching(file)
      for name in names where file.entry(name)?.sandboxAdminToken != token {
        var entry = file.entry(name) ?? ConfigFile.Entry()
        entry.sandboxAdminToken = token
        file.setEntry(name, entry)
      }
      return names
    }
  }

  /// `scheme://host:port` of a base URL with no path (nil when it has one), for comparing.
  static func origin(_ url: String) -> String? {
    let trimmed = url.hasSuffix("/") ? String(url.dropLast()) : url
    guard let parsed = ParsedURL(trimmed), let separator = trimmed.range(of: "://"),
      !trimmed[separator.upperBound...].contains("/")
    else { return nil }
    return "\(parsed.scheme)://\(parsed.host):\(parsed.port ?? (parsed.scheme == "https" ? 443 : 80))"
  }
}
