import ArgumentParser
import AuthAPI
import DeckAuth
import DeckCore

struct AuthSignup: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "signup", abstract: "Create an account and sign in to it.")

  @OptionGroup var global: GlobalOptions

  @Option(help: "The account's email address.")
  var email: String

  @Flag(help: "Read the password from stdin (otherwise it is asked for on the terminal).")
  var passwordStdin = false

  func run(_ context: DeckContext) async throws {
    let email = try Credentials.validateEmail(email)
    let password = try Credentials.password(fromStdin: passwordStdin)
    let session = try await context.authClient().signup(body: .json(.init(email: email, password: password))).ok.body
      .json
    try Credentials.signedIn(StoredSession(session), context: context, verb: "Signed up and signed in as")
  }
}
