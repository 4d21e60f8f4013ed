import ArgumentParser
import AuthAPI
import DeckAuth
import DeckCore
import DeckSupport
import OpenAPIRuntime

struct AuthSignup: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "signup", _superCommandName: "deck", abstract: "Create an account and sign in to it.",
    discussion: HelpText.discussion(
      """
      --role stores the account's role for the recruiting service (its user_metadata.role, as the
      app's sign-up does): an athlete changes their own player details; a parent may read them
      but not change them. Without it the account has no role and is treated as an athlete.

      $ printf '%s' "$PASSWORD" | deck auth signup --email parent@example.com --role parent --password-stdin
      """,
      exits: [.usage(), .rejected("the email is taken, or the password too weak"), .unavailable()]))

  @OptionGroup var global: GlobalOptions

  @Option(help: "The account's email address.")
  var email: String

  @Option(help: "The recruiting role, stored as user_metadata.role.")
  var role: Role?

  @Flag(help: "Read the password from stdin (otherwise it is asked for on the terminal).")
  var passwordStdin = false

  /// The roles of the recruiting app (preferences.md: "User role: determines player-details read/write access").
  enum Role: String, CaseIterable, ExpressibleByArgument {
    case athlete, parent
  }

  func run(_ context: DeckContext) async throws {
    let email = try Credentials.validateEmail(email)
    let password = try Credentials.password(fromStdin: passwordStdin)
    let data = try role.map {
      Components.Schemas.Metadata(
        additionalProperties: try OpenAPIObjectContainer(unvalidatedValue: ["role": $0.rawValue]))
    }
    let session: Components.Schemas.Session
    do {
      session = try await context.authClient().signup(
        body: .json(.init(email: email, password: password, data: data))
      ).ok.body.json
    } catch {
      // The email is taken: the account exists, so signing in is what was meant.
      let refused = ErrorPresenter.deckError(for: error)
      guard case .rejected = refused.kind, refused.message.lowercased().contains("already registered")
      else { throw error }
      throw DeckError(
        refused.kind, refused.message, hint: "Sign in to it instead: deck auth login --email \(email) --password-stdin")
    }
    try Credentials.signedIn(StoredSession(session), context: context, verb: "Signed up and signed in as")
  }
}
