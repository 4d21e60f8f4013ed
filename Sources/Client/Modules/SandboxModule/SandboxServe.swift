import ArgumentParser
import DeckCore
import DeckSupport
import SandboxLaunch

/// `deck sandbox serve`: runs the server program, `deck-sandbox serve`, in this process's place
/// with the same options (declared once, in ``ServeOptions``).
struct SandboxServe: DeckCommand, NamingFiles {
  /// A SQLite file (`sqlite:` or a path); a PostgreSQL URL names no file.
  static let files = FileArguments(writes: ["--database", "--db"])

  static let configuration = CommandConfiguration(
    commandName: "serve", _superCommandName: "deck", abstract: "Serve the sandbox on loopback until Ctrl-C.",
    discussion: HelpText.discussion(
      """
      Other clients (and `deck --env local`) can then use it at http://127.0.0.1:8787.
      --port 0 picks a free port. The first line on stdout is the URL it listens on; the second
      is sandbox-admin-token=TOKEN, the bearer token its operator endpoints (/__sandbox) need.
      The token belongs to the database (a reset keeps it). serve saves it in config.yml for the
      sandbox environments whose URL is the one it listens on (`local` for the defaults), so
      `deck --env local sandbox …` works at once. For another environment, one step (every
      service at the URL, and the token, which deck reads from this server's record in its runtime
      directory): deck env add NAME --sandbox URL; or deck env set NAME sandbox-admin-token=TOKEN,
      or export DECK_SANDBOX_ADMIN_TOKEN=TOKEN.
      A later line, sandbox-anon-key=KEY, gives the auth service's anon key (the Supabase
      clients' apikey). The server is the program deck-sandbox, installed beside deck; the
      default environment starts its own copy on demand (deck sandbox status).
      """,
      exits: [.failure("it could not start (a taken port, an unusable database)"), .usage()]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var options: ServeOptions

  func run(_ context: DeckContext) async throws {
    // It becomes the server program (this process is replaced), which would end a REPL or script.
    if context.session.runsManyLines.withLock({ $0 }) {
      throw DeckError.usage(
        "deck sandbox serve runs until stopped in place of deck, so it cannot run inside the REPL or a script.",
        hint: "Run it in another terminal: deck sandbox serve (the default environment needs none: it starts its own).")
    }
    let program = try context.session.localSandbox.program()
    var environment = SecretVariables.removed(from: context.session.processEnvironment)
    // The database goes to the server in its environment, not on its command line, which any
    // user of the machine can read (ps): a postgres:// URL may hold a password.
    environment["DECK_SANDBOX_DATABASE"] = options.database(
      environment: context.session.processEnvironment, fallback: context.paths.sandboxDatabase)
    throw LocalProcess.replace(
      with: program, arguments: ["serve"] + options.arguments(database: nil) + ["--save-admin-token"],
      environment: environment)
  }
}
