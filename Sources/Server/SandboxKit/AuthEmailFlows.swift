import AuthAPI
import Crypto
import Foundation
import OpenAPIRuntime
internal import SQLKit

/// GoTrue's emailed flows (password recovery, one-time sign-in links and codes,
/// reauthentication codes), the PKCE code exchange that follows them, and the feature-off
/// answers of what the sandbox does not do (confirmation resends, phone, external providers).
/// Emails go to the sandbox's outbox.
extension AuthHandlers {
  func recover(_ input: AuthAPI.Operations.recover.Input) async throws -> AuthAPI.Operations.recover.Output {
    guard case .json(let request) = input.body else { throw GoTrueError.badJSON }
    let email = try EmailFlows.address(request.email, missing: "Password recovery requires an email")
    try await EmailFlows.send(
      .recovery, to: email, redirectTo: input.query.redirect_to,
      challenge: try PKCEChallenge(request.code_challenge, method: request.code_challenge_method), state: state)
    return .ok(.init(body: .json(.init())))
  }

  func otp(_ input: AuthAPI.Operations.otp.Input) async throws -> AuthAPI.Operations.otp.Output {
    guard case .json(let request) = input.body else { throw GoTrueError.badJSON }
    if request.email != nil, request.phone != nil {
      throw GoTrueError.validationFailed("Only an email address or phone number should be provided")
    }
    if request.phone != nil { throw GoTrueError.phoneProviderDisabled }
    let email = try EmailFlows.address(request.email, missing: "One of email or phone must be set")
    let challenge = try PKCEChallenge(request.code_challenge, method: request.code_challenge_method)
    guard
      try await EmailFlows.send(
        .magicLink, to: email, redirectTo: input.query.redirect_to, challenge: challenge, state: state)
    else { throw GoTrueError(.unprocessableContent, "otp_disabled", "Signups not allowed for otp") }
    return .ok(.init(body: .json(.init())))
  }

  func verifyLink(_ input: AuthAPI.Operations.verifyLink.Input) async throws
    -> AuthAPI.Operations.verifyLink.Output
  {
    let redirect = EmailFlows.redirectTarget(input.query.redirect_to, state: state)
    let type = input.query._type
    guard let kind = OneTimeToken.Kind(verifyType: type.rawValue) else {
      return .seeOther(.init(headers: .init(Location: RedirectURL.error(.otpExpired, to: redirect))))
    }
    let state = self.state
    let outcome = try await state.database.write { db -> EmailFlows.LinkOutcome in
      guard let token = try await OneTimeToken.take(db, hash: input.query.token, kind: kind) else { return .invalid }
      if let challenge = token.challenge {
        return .code(try await FlowStates.issue(db, userID: token.userID, challenge: challenge))
      }
      guard let user = try await UserRecord.fetch(db, id: token.userID) else { return .invalid }
      return .session(try await Sessions.start(db, for: user, state: state))
    }
    let location =
      switch outcome {
      case .invalid: RedirectURL.error(.otpExpired, to: redirect)
      case .code(let code): RedirectURL.appending(query: ["code": code], to: redirect)
      case .session(let pending):
        RedirectURL.session(try await pending.signed(by: state.signer), type: type.rawValue, to: redirect)
      }
    return .seeOther(.init(headers: .init(Location: location)))
  }

  func verify(_ input: AuthAPI.Operations.verify.Input) async throws -> AuthAPI.Operations.verify.Output {
    guard case .json(let request) = input.body else { throw GoTrueError.badJSON }
    if [.sms, .phone_change].contains(request._type) { throw GoTrueError.phoneProviderDisabled }
    let hash: String
    if let tokenHash = request.token_hash, !tokenHash.isEmpty {
      hash = tokenHash
    } else if let code = request.token, !code.isEmpty {
      guard let email = request.email.map(EmailAddress.normalize), !email.isEmpty else {
        throw GoTrueError.validationFailed("Verify requires an email address with a token")
      }
      hash = OneTimeToken.hash(email: email, code: code)
    } else {
      throw GoTrueError.validationFailed("Verify requires either a token or a token hash")
    }
    guard let kind = OneTimeToken.Kind(verifyType: request._type.rawValue) else { throw GoTrueError.otpExpired }
    let state = self.state
    let pending = try await state.database.write { db -> Sessions.Pending? in
      guard let token = try await OneTimeToken.take(db, hash: hash, kind: kind),
        let user = try await UserRecord.fetch(db, id: token.userID)
      else { return nil }
      return try await Sessions.start(db, for: user, state: state)
    }
    guard let pending else { throw GoTrueError.otpExpired }
    return .ok(.init(body: .json(try await pending.signed(by: state.signer))))
  }

  func resend(_ input: AuthAPI.Operations.resend.Input) async throws -> AuthAPI.Operations.resend.Output {
    guard case .json(let request) = input.body else { throw GoTrueError.badJSON }
    switch request._type {
    case .sms, .phone_change:
      throw GoTrueError(.badRequest, "phone_provider_disabled", "Phone logins are disabled")
    case .signup, .email_change:
      guard let email = request.email, !EmailAddress.normalize(email).isEmpty else {
        throw GoTrueError.validationFailed("Type provided requires an email address")
      }
      // Every address is confirmed at sign-up: nothing is waiting for confirmation.
      return .ok(.init(body: .json(.init())))
    }
  }

  func reauthenticate(_ input: AuthAPI.Operations.reauthenticate.Input) async throws
    -> AuthAPI.Operations.reauthenticate.Output
  {
    let user = try await state.authenticate().get()
    let code = OneTimeToken.newCode()
    try await state.database.write { db in
      try await Outbox.send(
        db, to: user.email, subject: "Confirm reauthentication", body: "Enter the code: \(code)", link: "")
    }
    return .ok(.init(body: .json(.init())))
  }

  func authorize(_ input: AuthAPI.Operations.authorize.Input) async throws -> AuthAPI.Operations.authorize.Output {
    throw GoTrueError.validationFailed("Unsupported provider: provider is not enabled")
  }

  func settings(_ input: AuthAPI.Operations.settings.Input) async throws -> AuthAPI.Operations.settings.Output {
    let providers = [
      "anonymous_users", "apple", "azure", "bitbucket", "discord", "facebook", "figma", "fly", "github", "gitlab",
      "google", "keycloak", "kakao", "linkedin", "linkedin_oidc", "notion", "spotify", "slack", "slack_oidc",
      "workos", "twitch", "twitter", "email", "phone", "zoom",
    ]
    let external = Dictionary(uniqueKeysWithValues: providers.map { ($0, $0 == "email") })
    return .ok(
      .init(
        body: .json(
          .init(
            external: .init(additionalProperties: external), disable_signup: false, mailer_autoconfirm: true,
            phone_autoconfirm: false, sms_provider: "", saml_enabled: false))))
  }

  func health(_ input: AuthAPI.Operations.health.Input) async throws -> AuthAPI.Operations.health.Output {
    .ok(
      .init(
        body: .json(
          .init(
            version: "deck-sandbox", name: "GoTrue",
            description: "GoTrue is a user registration and authentication API"))))
  }

  func jwks(_ input: AuthAPI.Operations.jwks.Input) async throws -> AuthAPI.Operations.jwks.Output {
    // HS256 with one secret: GoTrue publishes no symmetric key, so the set is empty.
    .ok(.init(headers: .init(Cache_hyphen_Control: "public, max-age=600"), body: .json(.init(keys: []))))
  }
}

/// What the emailed flows share: the address checks, the emails and where links lead.
enum EmailFlows {
  /// What following a link gave: nothing (a bad token), a PKCE code, or a session.
  enum LinkOutcome {
    case invalid
    case code(String)
    case session(Sessions.Pending)
  }

  /// `email` normalized, or GoTrue's 400 when it is missing or not an address.
  static func address(_ email: String?, missing: String) throws -> String {
    guard let email = email.map(EmailAddress.normalize), !email.isEmpty else {
      throw GoTrueError.validationFailed(missing)
    }
    guard EmailAddress.isValid(email) else {
      throw GoTrueError.validationFailed("Unable to validate email address: invalid format")
    }
    return email
  }

  /// Records the email of `kind` to the account `email` in the outbox, with a new token that
  /// replaces the last one of that kind; false when there is no such account (nothing sent).
  @discardableResult
  static func send(
    _ kind: OneTimeToken.Kind, to email: String, redirectTo: String?, challenge: PKCEChallenge?, state: SandboxState
  ) async throws -> Bool {
    let redirect = redirectTarget(redirectTo, state: state)
    return try await state.database.write { db in
      guard let user = try await UserRecord.fetch(db, email: email) else { return false }
      let code = OneTimeToken.newCode()
      let hash = try await OneTimeToken.store(
        db, userID: user.id, email: email, code: code, kind: kind, challenge: challenge)
      let token = challenge == nil ? hash : OneTimeToken.pkcePrefix + hash
      let link = RedirectURL.appending(
        query: ["token": token, "type": kind.linkType, "redirect_to": redirect],
        to: state.linkBase + "/auth/v1/verify")
      try await Outbox.send(db, to: email, subject: kind.subject, body: kind.body(link: link, code: code), link: link)
      return true
    }
  }

  /// `redirect_to` when the sandbox may send a browser there (a loopback URL, one of a
  /// `--cors-origin` origin, or the sandbox's own), else the sandbox's URL (GoTrue's site URL).
  static func redirectTarget(_ redirectTo: String?, state: SandboxState) -> String {
    guard let redirectTo, let components = URLComponents(string: redirectTo),
      let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = components.host
    else { return state.linkBase }
    let origin = "\(scheme)://\(host.lowercased())" + (components.port.map { ":\($0)" } ?? "")
    if LoopbackAddress.isLoopback(host.trimmingCharacters(in: ["[", "]"]))
      || state.options.corsOrigins.extra.contains(origin) || redirectTo.hasPrefix(state.linkBase + "/")
    {
      return redirectTo
    }
    return state.linkBase
  }
}

/// The sandbox's mail catcher (`deck sandbox outbox`): every email it would send.
enum Outbox {
  static func send(_ db: any SQLDatabase, to: String, subject: String, body: String, link: String) async throws {
    try await db.execute(
      "INSERT INTO sandbox_outbox (to_email, subject, body, join_url, workspace_name, sent_at) VALUES (?, ?, ?, ?, NULL, ?)",
      [to, subject, body, link, Timestamps.now()])
  }
}

/// Where GET /verify sends the browser: GoTrue's redirect URLs.
enum RedirectURL {
  enum Failure {
    case otpExpired
  }

  /// `base` with `items` added to its query.
  static func appending(query items: [String: String], to base: String) -> String {
    var components = URLComponents(string: base) ?? URLComponents()
    var query = components.queryItems ?? []
    for (name, value) in items.sorted(by: { $0.key < $1.key }) { query.append(URLQueryItem(name: name, value: value)) }
    components.queryItems = query
    return components.string ?? base
  }

  /// `base` with the session in its fragment, as GoTrue's implicit flow hands it over.
  static func session(_ session: AuthAPI.Components.Schemas.Session, type: String, to base: String) -> String {
    fragment(
      [
        ("access_token", session.access_token), ("expires_at", String(session.expires_at)),
        ("expires_in", String(session.expires_in)), ("refresh_token", session.refresh_token),
        ("token_type", session.token_type), ("type", type),
      ], to: base)
  }

  /// `base` with GoTrue's error in its fragment.
  static func error(_ failure: Failure, to base: String) -> String {
    fragment(
      [
        ("error", "access_denied"), ("error_code", "otp_expired"),
        ("error_description", "Email link is invalid or has expired"),
      ], to: base)
  }

  private static func fragment(_ items: [(String, String)], to base: String) -> String {
    var components = URLComponents()
    components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
    let encoded = components.percentEncodedQuery ?? ""
    let withoutFragment = base.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    return "\(withoutFragment)#\(encoded)"
  }
}
