import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport

struct SandboxServe: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve", abstract: "Serve the sandbox on loopback until Ctrl-C.",
    discussion: """
      Other clients (and `deck --env local`) can then use it at http://127.0.0.1:8787.
      --port 0 picks a free port; the first line on stdout is the URL it listens on. A line
      sandbox-anon-key=KEY gives the auth service's anon key (the Supabase clients' apikey).
      """)

  @OptionGroup var global: GlobalOptions

  @Option(help: "The address to listen on. Anything but loopback exposes the sandbox to the network.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on (0 for any free port).")
  var port = 8787

  @Option(
    help: ArgumentHelp("The SQLite database file (default: the embedded sandbox's).", valueName: "path"),
    completion: .file())
  var db: String?

  @Option(help: .hidden)
  var accessTokenTTL = 3600

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port).") }
    guard accessTokenTTL > 0 else { throw ValidationError("--access-token-ttl must be positive.") }
  }

  func run(_ context: DeckContext) async throws {
    if !URLPolicy.isLoopback(host) {
      context.output.info(
        "warning: listening on \(host), not loopback: anyone who can reach this machine can use the sandbox and its demo account."
      )
    }
    let request = SandboxServeRequest(
      host: host, port: port, databasePath: db ?? context.paths.sandboxDatabase, accessTokenTTL: accessTokenTTL)
    let output = context.output
    let providers = context.session.providers
    try await context.session.providers.serveSandbox(request) { url in
      output.line(url.absoluteString)
      // The auth service's apikey, for the Supabase clients (public by design, as a project's anon key).
      if let anonKey = try? providers.sandboxAnonKey(databasePath: request.databasePath) {
        output.line("sandbox-anon-key=\(anonKey)")
      }
      output.info(
        "deck sandbox listening on \(url.absoluteString) (database \(request.databasePath)); Ctrl-C stops it.")
    }
  }
}
