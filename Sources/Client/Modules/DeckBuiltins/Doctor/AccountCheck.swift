import DeckAuth
import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials

/// The environment's active account: a token is there, when it expires, whether it can be
/// refreshed, and whether the server still takes it. No refresh token is ever spent (they are
/// single-use): an expired access token is reported, not refreshed.
enum AccountCheck {
  /// Where the token comes from.
  enum Token: Sendable, Equatable {
    /// `DECK_TOKEN`, with what its claims say (nil: not a JWT deck can read).
    case variable(expiresAt: Date?, email: String?)
    case stored(StoredSession)
    case none
    /// The token file could not be read (its own line says why).
    case unreadable(DeckError)
  }

  /// What the auth service said about the access token (`GET /auth/v1/user`).
  enum Verdict: Sendable, Equatable {
    case accepted(email: String)
    case refused(DeckError)
    case unreachable(DeckError)
    /// Not asked: the token has expired, or there is none.
    case notAsked
  }

  /// `sandboxDelay`: the delay the environment's sandbox puts on every API response, in
  /// milliseconds, when it was asked (it explains an answer that did not come in time).
  static func evaluate(
    environment: String, token: Token, verdict: Verdict, sandboxDelay: Int? = nil, now: Date = Date()
  ) -> DoctorCheck {
    let name = "account"
    let login = "deck auth login --email EMAIL --password-stdin"
    switch token {
    case .unreadable(let error):
      return .error(name, "not checked: the token file cannot be used (see its line above)", fix: error.hint)
    case .none:
      return .warning(name, "not signed in to environment \"\(environment)\"", fix: login)
    case .variable(let expiresAt, let email):
      let who = email.map { "DECK_TOKEN (\($0))" } ?? "DECK_TOKEN"
      if let expiresAt, expiresAt <= now {
        return .error(
          name,
          "\(who) expired \(DurationText.words(now.timeIntervalSince(expiresAt))) ago; deck never refreshes it",
          fix: "unset DECK_TOKEN, or export a fresh one")
      }
      let expiry = expiresAt.map { ", expires in \(DurationText.words($0.timeIntervalSince(now)))" } ?? ""
      return withVerdict(
        name, "\(who)\(expiry) (never refreshed)", verdict: verdict, login: "unset DECK_TOKEN",
        sandboxDelay: sandboxDelay)
    case .stored(let session):
      let relogin = "deck auth login --email \(session.email) --password-stdin"
      let refreshable = session.refreshToken != nil
      let expiresAt = session.expiresAt ?? JWTClaims(token: session.accessToken)?.expiresAt
      if let expiresAt, expiresAt <= now {
        let ago = DurationText.words(now.timeIntervalSince(expiresAt))
        guard refreshable else {
          return .error(
            name, "\(session.email): the access token expired \(ago) ago and there is no refresh token", fix: relogin)
        }
        return .ok(
          name,
          "\(session.email): the access token expired \(ago) ago; deck refreshes it on the next command (not tried here: refresh tokens are single-use)"
        )
      }
      var detail = session.email
      if let expiresAt { detail += ", token expires in \(DurationText.words(expiresAt.timeIntervalSince(now)))" }
      detail += refreshable ? ", refreshable" : ""
      let check = withVerdict(name, detail, verdict: verdict, login: relogin, sandboxDelay: sandboxDelay)
      if check.status == .ok && !refreshable {
        return .warning(name, detail + "; no refresh token, so it ends when the token expires", fix: relogin)
      }
      return check
    }
  }

  private static func withVerdict(
    _ name: String, _ detail: String, verdict: Verdict, login: String, sandboxDelay: Int?
  ) -> DoctorCheck {
    switch verdict {
    case .accepted(let email):
      return .ok(name, "\(detail); the server accepts it (user \(email))")
    case .refused(let error):
      return .error(name, "\(detail); the server refuses it: \(error.message)", fix: login)
    case .unreachable(let error):
      if let sandboxDelay, sandboxDelay > 0 {
        return .warning(
          name,
          "\(detail); not checked with the server: \(error.message) (the sandbox delays every API response by \(sandboxDelay) ms)",
          fix: "deck sandbox delay 0")
      }
      return .warning(
        name, "\(detail); not checked with the server: \(error.message)", fix: "see the auth service's line above")
    case .notAsked:
      return .ok(name, detail)
    }
  }
}
