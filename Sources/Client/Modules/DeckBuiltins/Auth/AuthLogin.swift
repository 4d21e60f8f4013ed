import ArgumentParser
import AuthAPI
import DeckAuth
import DeckCore
import DeckSupport

struct AuthLogin: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "login", _superCommandName: "deck",
    abstract: "Sign in with a password, or store a token you already have.",
    discussion: HelpText.discussion(
      """
      Password sign-in is Supabase-compatible: POST /auth/v1/token?grant_type=password.
      With --with-token, the access token is read from stdin and stored as is.
      """, exits: [.usage(), .unavailable(), .unauthorized("wrong email or password")]))

  @OptionGroup var global: GlobalOptions

  @Option(help: "The account's email address.")
  var email: String?

  @Flag(help: "Read the password from stdin (otherwise it is asked for on the terminal).")
  var passwordStdin = false

  @Flag(help: "Read an access token from stdin instead of signing in with a password.")
  var withToken = false

  func validate() throws {
    if withToken && passwordStdin {
      throw ValidationError("--with-token and --password-stdin both read stdin; use one.")
    }
    if !withToken && email == nil {
      throw ValidationError("Missing --email (or use --with-token).")
    }
  }

  func run(_ context: DeckContext) async throws {
    if withToken {
      let token = try TerminalInput.readSecretFromStdin(what: "token", flag: "--with-token")
      let claims = JWTClaims(token: token)
      guard let account = try email.map(Credentials.validateEmail) ?? claims?.email?.lowercased() else {
        throw DeckError.usage(
          "The token names no email address.", hint: "Say which account it is with --email.")
      }
      let session = StoredSession(email: account, accessToken: token, refreshToken: nil, expiresAt: claims?.expiresAt)
      return try Credentials.signedIn(session, context: context, verb: "Stored a token for")
    }
    let email = try Credentials.validateEmail(email!)
    let password = try Credentials.password(fromStdin: passwordStdin)
    let session: Components.Schemas.Session
    do {
      session = try await context.authClient().token(
        query: .init(grant_type: .password), body: .json(.init(email: email, password: password))
      ).ok.body.json
    } catch {
      // GoTrue answers bad credentials with 400 invalid_credentials: to a user that is an authentication failure.
      let failure = ErrorPresenter.deckError(for: error)
      guard case .rejected = failure.kind else { throw error }
      throw DeckError(
        .unauthorized(status: 400), failure.message,
        hint: "Check the email and password. New here? deck auth signup --email \(email) --password-stdin")
    }
    try Credentials.signedIn(StoredSession(session), context: context, verb: "Signed in as")
  }
}
