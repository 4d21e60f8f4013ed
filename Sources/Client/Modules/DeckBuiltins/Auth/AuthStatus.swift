import ArgumentParser
import AuthAPI
import DeckAuth
import DeckCore
import DeckSupport
import FoundationEssentials

struct AuthStatus: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", _superCommandName: "deck",
    abstract: "Show the signed-in accounts of the environment, and check the active one with the server.",
    discussion: HelpText.discussion(
      exits: [
        .unavailable("the auth service cannot be reached (not with --offline)"),
        .unauthorized("not signed in, or the session is no longer valid"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Do not contact the server; show what is stored.")
  var offline = false

  func run(_ context: DeckContext) async throws {
    let environment = try context.environment()
    if let token = context.session.processEnvironment["DECK_TOKEN"], !token.isEmpty {
      let claims = JWTClaims(token: token)
      let view = AccountView(
        environment: environment.name, email: claims?.email ?? "(unknown)", active: true, expiresAt: claims?.expiresAt,
        expired: claims?.expiresAt.map { $0 <= Date() } ?? false, tokenFile: "DECK_TOKEN", verified: nil)
      return try show([view], context: context)
    }
    var accounts = try context.tokenStore.accounts(in: environment.name)
    guard let active = accounts.activeSession else {
      throw DeckError(
        .unauthorized(status: nil), "Not signed in to environment \"\(environment.name)\".",
        hint: "Sign in with: deck auth login --email EMAIL --password-stdin")
    }
    var verified: Bool?
    if !offline {
      // Refreshes an expired token first, then asks the server who the token belongs to.
      _ = try await context.accessToken()
      let user: Components.Schemas.User
      do {
        user = try await context.authClient(auth: .required).getUser().ok.body.json
      } catch {
        // GoTrue answers 403 for a token whose session has ended (signed out elsewhere, or a
        // sandbox reset) or whose user is gone: to the user, a session to sign in again.
        let failure = ErrorPresenter.deckError(for: error)
        guard case .unauthorized(status: 403) = failure.kind else { throw error }
        throw DeckError(
          .unauthorized(status: 403),
          "The session of \(active.email) in environment \"\(environment.name)\" is no longer valid: \(failure.message)",
          hint: "Sign in again with: deck auth login --email \(active.email) --password-stdin")
      }
      verified = user.email.lowercased() == active.email.lowercased()
      accounts = try context.tokenStore.accounts(in: environment.name)
    }
    let views = accounts.accounts.values.sorted { $0.email < $1.email }.map { session in
      AccountView(
        environment: environment.name, email: session.email, active: session.email == accounts.active,
        expiresAt: session.expiresAt ?? JWTClaims(token: session.accessToken)?.expiresAt,
        expired: session.isExpired(leeway: 0), tokenFile: context.tokenStore.path,
        verified: session.email == accounts.active ? verified : nil)
    }
    try show(views, context: context)
  }

  private func show(_ views: [AccountView], context: DeckContext) throws {
    let output = context.output
    try output.emit(views) {
      for view in views { Self.show(view, last: view.email == views.last?.email, output: output) }
    }
  }

  /// "in 55 min" or "expired 2 h ago".
  static func relative(_ date: Date, now: Date) -> String {
    let seconds = date.timeIntervalSince(now)
    return seconds > 0
      ? "in \(DurationText.words(seconds))" : "expired \(DurationText.words(-seconds)) ago"
  }

  private static func show(_ view: AccountView, last: Bool, output: Output) {
    var rows: [(String, String)] = [
      ("environment", view.environment),
      ("account", view.email + (view.active ? " (active)" : "")),
    ]
    if let expiresAt = view.expiresAt {
      rows.append(("expires", "\(expiresAt.formatted(.iso8601)) (\(relative(expiresAt, now: Date())))"))
    }
    if let verified = view.verified {
      rows.append(("server", verified ? "token accepted" : "token belongs to another user"))
    }
    rows.append(("stored in", view.tokenFile))
    output.fields(rows)
    if !last { output.line() }
  }
}
