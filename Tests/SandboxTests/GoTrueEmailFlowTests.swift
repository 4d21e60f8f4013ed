import Crypto
import ExtrasBase64
import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// GoTrue's endpoints beyond sign-in (issue 48, item 6), over HTTP against an embedded sandbox:
/// settings, health and keys; recovery and sign-in emails through the outbox, their links and
/// codes, the PKCE exchange; and the feature-off answers.
@Suite struct GoTrueEmailFlowTests {
  let endpoints = GoTrueEndpointTests()
  typealias Server = GoTrueEndpointTests.Server

  /// The last email the outbox holds for `to`, read as the operator reads it.
  func lastEmail(_ server: Server, to: String) async throws -> (body: String, link: String)? {
    var request = URLRequest(
      url: try #require(URL(string: server.sandbox.baseURL.absoluteString + "/__sandbox/v1/workspace/outbox?to=\(to)")))
    request.setValue("Bearer \(server.sandbox.adminToken)", forHTTPHeaderField: "Authorization")
    let (data, _) = try await URLSession.shared.data(for: request)
    let emails = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    guard let email = emails.last else { return nil }
    return (try #require(email["body"] as? String), try #require(email["join_url"] as? String))
  }

  /// The six-digit code in an email's body.
  func code(in body: String) throws -> String {
    try #require(body.split(separator: " ").last.map { String($0) }.flatMap { $0.count == 6 ? $0 : nil })
  }

  /// GETs `url` without following its redirect; returns the status and the Location header.
  func follow(_ url: String, port: Int) async throws -> (status: Int, location: String?) {
    let target = try #require(URLComponents(string: url))
    let path = target.percentEncodedPath + (target.percentEncodedQuery.map { "?\($0)" } ?? "")
    let response = try await offThePool {
      let connection = try RawConnection(port: port, readTimeout: 1)
      connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
      return String(decoding: connection.readUntilClosed(timeout: 30).data, as: UTF8.self)
    }
    let lines = response.components(separatedBy: "\r\n")
    let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
    let location = lines.first { $0.lowercased().hasPrefix("location:") }.map {
      String($0.dropFirst("location:".count)).trimmingCharacters(in: .whitespaces)
    }
    return (status, location)
  }

  func port(_ server: Server) throws -> Int { try #require(server.sandbox.baseURL.port) }

  @Test(.timeLimit(.minutes(3))) func settingsHealthAndKeysAnswerAsGoTrue() async throws {
    try await endpoints.withServer { server in
      let settings = try await server.send("GET", "/settings")
      #expect(settings.status == 200)
      let external = try #require(settings.body["external"] as? [String: Bool])
      #expect(external["email"] == true && external["phone"] == false && external["google"] == false)
      #expect(settings.body["mailer_autoconfirm"] as? Bool == true)
      #expect(settings.body["disable_signup"] as? Bool == false)
      let health = try await server.send("GET", "/health")
      #expect(health.status == 200 && health.string("name") == "GoTrue")
      let keys = try await server.send("GET", "/.well-known/jwks.json")
      #expect(keys.status == 200)
      #expect((keys.body["keys"] as? [Any])?.isEmpty == true)
    }
  }

  @Test(.timeLimit(.minutes(3))) func aRecoveryLinkFromTheOutboxSignsInOnce() async throws {
    try await endpoints.withServer { server in
      #expect(try await server.signUp("lost@example.com").status == 200)
      let sent = try await server.send(
        "POST", "/recover?redirect_to=http://localhost:3000/reset", #"{"email":"Lost@Example.com"}"#)
      #expect(sent.status == 200 && sent.body.isEmpty, "\(sent.body)")
      let email = try #require(try await lastEmail(server, to: "lost@example.com"))
      #expect(email.link.contains("/auth/v1/verify?") && email.link.contains("type=recovery"))
      let followed = try await follow(email.link, port: try port(server))
      #expect(followed.status == 303)
      let location = try #require(followed.location)
      #expect(location.hasPrefix("http://localhost:3000/reset#access_token="), "\(location)")
      #expect(location.contains("refresh_token=") && location.contains("type=recovery"))
      // Used once.
      let again = try await follow(email.link, port: try port(server))
      #expect(again.location?.contains("error_code=otp_expired") == true, "\(again.location ?? "")")
      // No account: the same answer, and no email.
      #expect(try await server.send("POST", "/recover", #"{"email":"nobody@example.com"}"#).status == 200)
      #expect(try await lastEmail(server, to: "nobody@example.com") == nil)
      endpoints.expectError(try await server.send("POST", "/recover", #"{"email":"nope"}"#), 400, "validation_failed")
    }
  }

  @Test(.timeLimit(.minutes(3))) func theEmailedCodeVerifiesOnceAndTheUserSetsANewPassword() async throws {
    try await endpoints.withServer { server in
      #expect(try await server.signUp("code@example.com").status == 200)
      #expect(try await server.send("POST", "/recover", #"{"email":"code@example.com"}"#).status == 200)
      let code = try code(in: try #require(try await lastEmail(server, to: "code@example.com")).body)
      let body = #"{"type":"recovery","email":"code@example.com","token":"\#(code)"}"#
      let session = try await server.send("POST", "/verify", body)
      #expect(session.status == 200, "\(session.body)")
      let updated = try await server.send(
        "PUT", "/user", #"{"password":"new-secret-2"}"#, bearer: session.string("access_token"))
      #expect(updated.status == 200)
      #expect(try await server.signIn("code@example.com", password: "new-secret-2").status == 200)
      endpoints.expectError(try await server.send("POST", "/verify", body), 403, "otp_expired")
      let never = #"{"type":"signup","email":"code@example.com","token":"123456"}"#
      endpoints.expectError(try await server.send("POST", "/verify", never), 403, "otp_expired")
      endpoints.expectError(try await server.send("POST", "/verify", #"{"type":"recovery"}"#), 400, "validation_failed")
    }
  }

  @Test(.timeLimit(.minutes(3))) func aPKCELinkHandsOverACodeForTheVerifier() async throws {
    try await endpoints.withServer { server in
      #expect(try await server.signUp("pkce@example.com").status == 200)
      let verifier = "a-verifier-of-forty-three-characters-or-more-0123456789"
      let challenge = Base64.encodeToString(
        bytes: Array(SHA256.hash(data: Data(verifier.utf8))), options: [.base64UrlAlphabet, .omitPaddingCharacter])
      let request = #"{"email":"pkce@example.com","code_challenge":"\#(challenge)","code_challenge_method":"s256"}"#
      #expect(try await server.send("POST", "/otp?redirect_to=http://127.0.0.1:5173/cb", request).status == 200)
      let email = try #require(try await lastEmail(server, to: "pkce@example.com"))
      #expect(email.link.contains("token=pkce_"))
      let location = try #require(try await follow(email.link, port: try port(server)).location)
      let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
      #expect(location.hasPrefix("http://127.0.0.1:5173/cb?code="))
      let wrong = #"{"auth_code":"\#(code)","code_verifier":"not-the-verifier"}"#
      endpoints.expectError(try await server.send("POST", "/token?grant_type=pkce", wrong), 400, "bad_code_verifier")
      let exchange = #"{"auth_code":"\#(code)","code_verifier":"\#(verifier)"}"#
      let session = try await server.send("POST", "/token?grant_type=pkce", exchange)
      #expect(session.status == 200, "\(session.body)")
      #expect(session.user["email"] as? String == "pkce@example.com")
      endpoints.expectError(
        try await server.send("POST", "/token?grant_type=pkce", exchange), 404, "flow_state_not_found")
      endpoints.expectError(try await server.send("POST", "/token?grant_type=pkce", "{}"), 400, "validation_failed")
    }
  }

  @Test(.timeLimit(.minutes(3))) func whatTheSandboxDoesNotDoIsAnsweredAsGoTrueWithTheFeatureOff() async throws {
    try await endpoints.withServer { server in
      let session = try await server.signUp("off@example.com")
      endpoints.expectError(
        try await server.send("POST", "/otp", #"{"email":"stranger@example.com"}"#), 422, "otp_disabled")
      endpoints.expectError(
        try await server.send("POST", "/otp", #"{"phone":"+15555550100"}"#), 400, "phone_provider_disabled")
      let resent = try await server.send("POST", "/resend", #"{"type":"signup","email":"off@example.com"}"#)
      #expect(resent.status == 200 && resent.body.isEmpty)
      endpoints.expectError(
        try await server.send("POST", "/resend", #"{"type":"sms","phone":"+15555550100"}"#), 400,
        "phone_provider_disabled")
      endpoints.expectError(try await server.send("GET", "/authorize?provider=google"), 400, "validation_failed")
      let reauthenticated = try await server.send("GET", "/reauthenticate", bearer: session.string("access_token"))
      #expect(reauthenticated.status == 200)
      #expect(try await lastEmail(server, to: "off@example.com")?.body.hasPrefix("Enter the code: ") == true)
      endpoints.expectError(try await server.send("GET", "/reauthenticate"), 401, "no_authorization")
    }
  }
}
