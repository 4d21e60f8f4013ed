import ArgumentParser
import AuthAPI
import DeckAuth
import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials

/// `deck auth`: accounts and tokens per environment, like `gh auth`.
public enum AuthModule: DeckModule {
  public static let name = "auth"
  public static let summary = "Sign up, sign in and manage tokens, per environment and account."
  public static let services: [Service] = [.auth]
  public static var commands: [any ParsableCommand.Type] { [AuthCommand.self] }
  public static var completionProviders: [any CompletionProvider.Type] { [AccountCompletion.self] }
}

struct AuthCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "auth", abstract: AuthModule.summary,
    discussion: HelpText.discussion(
      """
      Tokens are kept per environment and account in tokens.json (mode 0600) in deck's config directory.
      DECK_TOKEN overrides the stored token. Tokens are only sent to their own environment's hosts.
      """,
      exits: [
        .failure("failure (including a token file that cannot be read or written)"), .usage(),
        .rejected("the email is taken, or the password too weak"), .unavailable(),
        .unauthorized("not signed in, a wrong password, or a session that ended"),
      ]),
    subcommands: [
      AuthSignup.self, AuthLogin.self, AuthStatus.self, AuthSwitch.self, AuthLogout.self, AuthToken.self,
    ])
}

/// The accounts signed in to the current environment.
public enum AccountCompletion: CompletionProvider {
  public static let id = "accounts"
  public static func values(prefix: String, context: DeckContext) async throws -> [String] {
    let environment = try context.environment()
    return try context.tokenStore.accounts(in: environment.name).accounts.keys.sorted().filter {
      $0.lowercased().hasPrefix(prefix.lowercased())
    }
  }
}

/// What `auth signup`, `login` and `status` print with `--json`. Never the token.
struct AccountView: Encodable {
  var environment: String
  var email: String
  var active: Bool
  var expiresAt: Date?
  var expired: Bool
  var tokenFile: String
  var verified: Bool?
}

enum Credentials {
  static func validateEmail(_ email: String) throws -> String {
    let trimmed = email.trimming(.whitespacesAndNewlines)
    let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !trimmed.contains(" ") else {
      throw DeckError.usage("\"\(email)\" is not a valid email address.")
    }
    return trimmed.lowercased()
  }

  static func password(fromStdin: Bool) throws -> String {
    if fromStdin { return try TerminalInput.readSecretFromStdin(what: "password", flag: "--password-stdin") }
    guard TerminalInput.stdinIsTerminal else {
      throw DeckError.usage(
        "No password: stdin is not a terminal.",
        hint: "Pipe it in with --password-stdin, e.g. printf '%s' \"$PW\" | deck auth login --email E --password-stdin")
    }
    return try TerminalInput.promptSecret("Password: ")
  }

  /// Stores a new session and reports it.
  static func signedIn(_ session: StoredSession, context: DeckContext, verb: String) throws {
    let environment = try context.environment()
    var session = session
    // The token goes only to the origins the environment has now (see DeckContext.tokenPolicy).
    session.origins = try context.originsForNewToken()
    try context.tokenStore.save(session, in: environment.name)
    try context.output.emit(
      AccountView(
        environment: environment.name, email: session.email, active: true, expiresAt: session.expiresAt,
        expired: false, tokenFile: context.tokenStore.path, verified: true),
      message: "\(verb) \(session.email) in environment \"\(environment.name)\".")
  }
}
