import ArgumentParser
import DeckCore
import DeckSupport

struct AuthLogout: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "logout", _superCommandName: "deck",
    abstract: "Sign out (the active account by default) and forget its tokens.",
    discussion: HelpText.discussion(exits: [.usage("not signed in, or no such account")]))

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: "The account to sign out.",
    completion: .custom { _, _, prefix in DynamicCompletion.values(AccountCompletion.self, prefix: prefix) })
  var email: String?

  func run(_ context: DeckContext) async throws {
    let environment = try context.environment()
    let accounts = try context.tokenStore.accounts(in: environment.name)
    let target = try email.map(Credentials.validateEmail) ?? accounts.active
    guard let target, let session = accounts.accounts[target] else {
      throw DeckError.usage(
        email.map { "No account \($0) in environment \"\(environment.name)\"." }
          ?? "Not signed in to environment \"\(environment.name)\".")
    }
    // Revoke the refresh tokens on the server; the local tokens go either way.
    var revoked = true
    do {
      _ = try await context.authClient(auth: .stored(session)).logout().noContent
    } catch {
      revoked = false
      context.output.info(
        "warning: could not revoke the session on the server (\(ErrorPresenter.deckError(for: error).message)); forgetting it locally."
      )
    }
    try context.tokenStore.remove(target, in: environment.name)
    try context.output.emit(
      LogoutView(environment: environment.name, email: target, revoked: revoked),
      message: "Signed out \(target) from environment \"\(environment.name)\".")
  }

  struct LogoutView: Encodable {
    var environment: String
    var email: String
    var revoked: Bool
  }
}
