import Foundation
import TestSupport
import Testing

@Suite("deck auth, against deck sandbox serve", .endToEndTimeLimit)
struct AuthEndToEndTests {
  func tokens(_ deck: DeckCLI) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: deck.tokenFile))
    let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let environments = try #require(file["environments"] as? [String: Any])
    let local = try #require(environments["local"] as? [String: Any])
    let accounts = try #require(local["accounts"] as? [String: Any])
    let active = try #require(local["active"] as? String)
    return try #require(accounts[active] as? [String: Any])
  }

  @Test func signupLoginStatusLogout() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let signup = try deck.run(
      ["auth", "signup", "--email", "Agent@Example.com", "--password-stdin"], stdin: "pw-123456\n")
    #expect(signup.status == 0, "\(signup.stderr)")
    // The same email again: refused (65), with the command that signs in to it.
    let again = try deck.run(
      ["auth", "signup", "--email", "agent@example.com", "--password-stdin"], stdin: "pw-123456\n")
    #expect(again.status == 65, "\(again.all)")
    #expect(again.stderr.contains("deck auth login --email agent@example.com --password-stdin"), "\(again.stderr)")
    let status = try deck.run(["auth", "status", "--json"])
    #expect(status.status == 0, "\(status.stderr)")
    let accounts = try #require(try json(status.stdout) as? [[String: Any]])
    #expect(accounts.first?["email"] as? String == "agent@example.com")
    #expect(accounts.first?["verified"] as? Bool == true)
    #expect(accounts.first?["environment"] as? String == "local")

    let demo = try deck.run(["auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox")
    #expect(demo.status == 0, "\(demo.stderr)")
    #expect(try deck.run(["auth", "status", "--offline"]).stdout.contains("owner@sandbox.test (active)"))
    // Without an account, switch lists the signed-in ones (64, nothing changed).
    let unnamed = try deck.run(["auth", "switch"])
    #expect(unnamed.status == 64)
    #expect(unnamed.stderr.contains("agent@example.com, owner@sandbox.test (active)"), "\(unnamed.stderr)")
    #expect(try deck.run(["auth", "switch", "agent@example.com"]).status == 0)
    let table = try deck.run(["auth", "status"]).stdout
    #expect(table.contains("agent@example.com (active)"))
    // Expiry relative to now beside the absolute time (the sandbox's tokens last an hour).
    #expect(table.contains(/expires +\d{4}-\d\d-\d\dT[0-9:]+Z \(in (59 min|1 h)/), "\(table)")

    let logout = try deck.run(["auth", "logout"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(try deck.run(["auth", "status", "--offline"]).stdout.contains("owner@sandbox.test (active)"))
    #expect(try deck.run(["auth", "logout", "owner@sandbox.test"]).status == 0)
    let none = try deck.run(["auth", "token"])
    #expect(none.status == 77)
    #expect(none.stderr.contains("deck auth login"))
  }

  @Test func wrongPasswordExits77() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let result = try deck.run(["auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "nope")
    #expect(result.status == 77)
    #expect(result.stderr.contains("Invalid login credentials"))
  }

  @Test func expiredTokenIsRefreshedBeforeTheRequest() throws {
    // Tokens that live 20 s are always inside deck's 30 s refresh window.
    let server = try SandboxProcess(extraArguments: ["--access-token-ttl", "20"])
    let deck = try DeckCLI(server: server)
    #expect(
      try deck.run(["auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox").status == 0
    )
    let before = try tokens(deck)
    let status = try deck.run(["auth", "status"])
    #expect(status.status == 0, "\(status.stderr)")
    let after = try tokens(deck)
    #expect(after["access_token"] as? String != before["access_token"] as? String)
    #expect(after["refresh_token"] as? String != before["refresh_token"] as? String)
  }

  @Test func unrefreshableSessionAsksToLogIn() throws {
    let server = try SandboxProcess(extraArguments: ["--access-token-ttl", "20"])
    let deck = try DeckCLI(server: server)
    #expect(
      try deck.run(["auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox").status == 0
    )
    #expect(try deck.run(["sandbox", "reset"]).status == 0)
    let result = try deck.run(["auth", "token"])
    #expect(result.status == 77)
    #expect(result.stderr.contains("deck auth login --email owner@sandbox.test"))
  }

  @Test func statusAfterAResetAsksToLogInAgain() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    #expect(
      try deck.run(["auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox").status == 0
    )
    #expect(try deck.run(["sandbox", "reset"]).status == 0)
    // The access token has not expired, but its session ended with the reset.
    let status = try deck.run(["auth", "status"])
    #expect(status.status == 77)
    #expect(status.stderr.contains("no longer valid"), "\(status.stderr)")
    #expect(status.stderr.contains("deck auth login --email owner@sandbox.test"))
  }

  @Test func tokenFileIsPrivateAndAReadableOneIsRefused() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    #expect(
      try deck.run(["auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox").status == 0
    )
    let attributes = try FileManager.default.attributesOfItem(atPath: deck.tokenFile)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let directory = try FileManager.default.attributesOfItem(atPath: deck.configDirectory)
    #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: deck.tokenFile)
    let refused = try deck.run(["auth", "token"])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("chmod 600"))
  }

  @Test func tokenNeverAppearsInTrace() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let login = try deck.run(
      ["auth", "login", "--email", "owner@sandbox.test", "--password-stdin", "--trace=body"], stdin: "sandbox")
    #expect(login.status == 0, "\(login.stderr)")
    let stored = try tokens(deck)
    let access = try #require(stored["access_token"] as? String)
    let refresh = try #require(stored["refresh_token"] as? String)
    let status = try deck.run(["auth", "status", "--trace=body"])
    #expect(status.status == 0)
    for output in [login.all, status.all] {
      #expect(!output.contains(access))
      #expect(!output.contains(refresh))
      #expect(!output.contains("sandbox\"}"), "the password is redacted too")
    }
    #expect(status.stderr.contains("Authorization: Bearer [REDACTED]"))
    #expect(try deck.run(["auth", "token"]).stdout == access + "\n", "auth token is the one command that prints it")
  }

  @Test func deckTokenOverridesTheStore() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let result = try deck.run(["auth", "token"], environment: ["DECK_TOKEN": "from-the-environment"])
    #expect(result.stdout == "from-the-environment\n")
  }

  @Test func signupRejectsBadInputBeforeSending() throws {
    let deck = try DeckCLI()
    #expect(try deck.run(["auth", "signup", "--email", "not-an-email", "--password-stdin"], stdin: "pw").status == 64)
    #expect(try deck.run(["auth", "signup", "--email", "a@b.test", "--password-stdin"], stdin: "").status == 64)
  }

  /// The status of a password sign-in to `server` that sends `apiKey`, with curl (as any client would).
  func signInStatus(_ server: SandboxProcess, apiKey: String) throws -> String {
    try DeckCLI.execute(
      "/usr/bin/env",
      [
        "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "apikey: \(apiKey)", "-H",
        "Content-Type: application/json", "-d", #"{"email":"owner@sandbox.test","password":"sandbox"}"#,
        server.url + "/auth/v1/token?grant_type=password",
      ], stdin: nil, environment: ProcessInfo.processInfo.environment, in: server.directory
    ).stdout
  }

  @Test(.endToEndTimeLimit) func statusShowsTheAnonKeyTheServerAccepts() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let status = try deck.run(["sandbox", "status", "--json"])
    #expect(status.status == 0, "\(status.stderr)")
    let info = try #require(try json(status.stdout) as? [String: Any])
    let anonKey = try #require(info["anonKey"] as? String)
    #expect(anonKey.split(separator: ".").count == 3)
    #expect(try deck.run(["sandbox", "status"]).stdout.contains(anonKey))
    #expect(try signInStatus(server, apiKey: anonKey) == "200")
    #expect(try signInStatus(server, apiKey: anonKey + "x") == "401")
    // A reset keeps the key.
    #expect(try deck.run(["sandbox", "reset"]).status == 0)
    #expect(try signInStatus(server, apiKey: anonKey) == "200")
  }

  @Test(.endToEndTimeLimit) func servePrintsTheURLThenTheAnonKey() throws {
    let lines = try SandboxProcess().startLines
    #expect(lines.count == 3)
    #expect(lines.first?.hasPrefix("http://127.0.0.1:") == true, "the first line stays the URL")
    #expect(lines.dropFirst().first?.hasPrefix("sandbox-admin-token=") == true)
    let keyLine = try #require(lines.last)
    #expect(keyLine.hasPrefix("sandbox-anon-key="))
    #expect(keyLine.dropFirst("sandbox-anon-key=".count).split(separator: ".").count == 3)
  }

}
