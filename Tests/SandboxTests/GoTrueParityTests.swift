import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

/// Where the sandbox's auth service answered differently from GoTrue (issue 48, item 7): the
/// refresh-token reuse rules, an empty password, the `x-sb-error-code` header and GoTrue's
/// wording. Over HTTP against an embedded sandbox.
@Suite struct GoTrueParityTests {
  let endpoints = GoTrueEndpointTests()

  @Test(.timeLimit(.minutes(3))) func aRotatedRefreshTokenGetsTheActiveTokenBack() async throws {
    try await endpoints.withServer { server in
      #expect(try await server.signUp("reuse@example.com").status == 200)
      let first = try #require(try await server.signIn("reuse@example.com").string("refresh_token"))
      let second = try #require(try await server.refresh(first).string("refresh_token"))
      // The parent of the active token: the client lost the answer, or refreshed twice at once.
      let again = try await server.refresh(first)
      #expect(again.status == 200, "\(again.body)")
      #expect(again.string("refresh_token") == second)
      #expect(again.string("access_token") != nil)
      let third = try #require(try await server.refresh(second).string("refresh_token"))
      // No longer the active token's parent, but within the reuse interval (10 s): a new token.
      let late = try await server.refresh(first)
      #expect(late.status == 200, "\(late.body)")
      #expect(![first, second, third].contains(late.string("refresh_token")))
    }
  }

  @Test(.timeLimit(.minutes(3))) func concurrentRefreshesWithOneTokenBothSucceed() async throws {
    try await endpoints.withServer { server in
      #expect(try await server.signUp("tabs@example.com").status == 200)
      let token = try #require(try await server.signIn("tabs@example.com").string("refresh_token"))
      let replies = try await withThrowingTaskGroup(of: (status: Int, token: String?).self) { group in
        for _ in 0..<2 {
          group.addTask {
            let reply = try await server.refresh(token)
            return (reply.status, reply.string("refresh_token"))
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(replies.map(\.status) == [200, 200])
      #expect(replies[0].token != nil && replies[0].token == replies[1].token)
    }
  }

  @Test(.timeLimit(.minutes(3))) func aReuseOutsideTheIntervalIsRefusedAndEndsTheSession() async throws {
    try await endpoints.withServer(configure: { $0.refreshTokenReuseInterval = 0 }) { server in
      #expect(try await server.signUp("stolen@example.com").status == 200)
      let session = try await server.signIn("stolen@example.com")
      let first = try #require(session.string("refresh_token"))
      let second = try #require(try await server.refresh(first).string("refresh_token"))
      let third = try #require(try await server.refresh(second).string("refresh_token"))
      endpoints.expectError(try await server.refresh(first), 400, "refresh_token_already_used")
      // GoTrue revokes the whole family: the active token is used up too.
      endpoints.expectError(try await server.refresh(third), 400, "refresh_token_already_used")
    }
  }

  @Test(.timeLimit(.minutes(3))) func anEmptyPasswordIs400() async throws {
    try await endpoints.withServer { server in
      let reply = try await server.send("POST", "/signup", #"{"email":"empty@example.com","password":""}"#)
      endpoints.expectError(reply, 400, "validation_failed")
      #expect(reply.string("msg") == "Signup requires a valid password")
    }
  }

  @Test(.timeLimit(.minutes(3))) func everyErrorNamesItsCodeInTheHeader() async throws {
    try await endpoints.withServer { server in
      let original = try await server.signIn("nobody@example.com")
      #expect(original.headers["x-sb-error-code"] as? String == "invalid_credentials")
      let newer = try await server.send("GET", "/user", headers: ["X-Supabase-Api-Version": "2024-01-01"])
      #expect(newer.body["code"] as? String == "no_authorization")
      #expect(newer.headers["x-sb-error-code"] as? String == "no_authorization")
      let weak = try await server.signUp("weak@example.com", password: "123")
      #expect(weak.headers["x-sb-error-code"] as? String == "weak_password")
      // Success has none.
      let fine = try await server.signUp("fine@example.com")
      #expect(fine.status == 200)
      #expect(fine.headers["x-sb-error-code"] == nil)
    }
  }

  @Test(.timeLimit(.minutes(3))) func errorsAreWordedAsGoTrueWordsThem() async throws {
    try await endpoints.withServer { server in
      let missing = try await server.send("GET", "/user")
      endpoints.expectError(missing, 401, "no_authorization")
      #expect(missing.string("msg") == "This endpoint requires a valid Bearer token")

      // supabase-js and supabase-py send the anon key as the bearer until a user signs in.
      let anonKey = try await SandboxServer.anonKey(databasePath: server.databasePath)
      let anon = try await server.send("GET", "/user", bearer: anonKey)
      endpoints.expectError(anon, 403, "bad_jwt")
      #expect(anon.string("msg") == "invalid claim: missing sub claim")

      let broken = try await server.send("POST", "/signup", "{not json")
      endpoints.expectError(broken, 400, "bad_json")
      #expect(broken.string("msg")?.hasPrefix("Could not parse request body as JSON: ") == true)
      let mistyped = try await server.send("POST", "/signup", #"{"email":1,"password":"secret-1"}"#)
      endpoints.expectError(mistyped, 400, "bad_json")
      #expect(mistyped.string("msg")?.contains(#""email""#) == true, "\(mistyped.body)")
    }
  }
}
