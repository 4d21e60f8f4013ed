import Foundation
import TestSupport
import Testing

/// Issue 49: `deck api`, one raw request to a service of the environment, against a served
/// sandbox: the service from the path, the body and exit code of an error, and the token
/// only where the token policy lets it go.
@Suite("deck api", .endToEndTimeLimit)
struct ApiEndToEndTests {
  @Test func aPathFindsItsServiceAndTheAnswerIsPrinted() throws {
    let (server, deck) = try DeckCLI.signedIn()
    let state = try deck.run(["api", "/api/access/state"])
    #expect(state.status == 0, "\(state.stderr)")
    let answer = try #require(try json(state.stdout) as? [String: Any], "\(state.stdout)")
    #expect(answer["hasAccess"] != nil, "\(answer)")
    // The global options read the body as JSON.
    let filtered = try deck.run(["api", "/api/access/state", "--jq", ".hasAccess | type"])
    #expect(filtered.stdout == "boolean\n", "\(filtered.stdout)\(filtered.stderr)")
    let yaml = try deck.run(["api", "/api/access/state", "--format", "yaml"])
    #expect(yaml.status == 0 && yaml.stdout.contains("hasAccess: "), "\(yaml.stdout)")
    // -f fields are the query for GET (else a JSON body, and the method POST); --include shows the status and the headers first.
    let search = try deck.run(["api", "-X", "GET", "/api/brokerages/search", "-f", "q=keller", "--include"])
    #expect(search.status == 0, "\(search.stderr)")
    #expect(search.stdout.hasPrefix("HTTP 200\n"), "\(search.stdout)")
    #expect(search.stdout.lowercased().contains("content-type: application/json"))
    #expect(search.stdout.contains("Keller"), "\(search.stdout)")
    // A path template's parameter matches any segment: the kiosk service, without --service.
    let kiosk = try deck.run(["api", "/api/v1/kiosk/no-such-store/next"])
    #expect(kiosk.status != 64, "the path is the kiosk contract's: \(kiosk.stderr)")
    _ = server
  }

  @Test func anUnknownOrForeignPathIsAUsageError() throws {
    let (server, deck) = try DeckCLI.signedIn()
    let unknown = try deck.run(["api", "/api/nowhere"])
    #expect(unknown.status == 64, "\(unknown.stderr)")
    #expect(unknown.stderr.contains("No contract has the path /api/nowhere"), "\(unknown.stderr)")
    #expect(unknown.stderr.contains("--service") && unknown.stderr.contains("flyr"), "\(unknown.stderr)")
    let named = try deck.run(["api", "--service", "flyr", "/api/nowhere"])
    #expect(named.status == 1, "404 from flyr: \(named.stderr)")
    let noService = try deck.run(["api", "--service", "nosuch", "/api/access/state"])
    #expect(noService.status == 64 && noService.stderr.contains("Services: auth"), "\(noService.stderr)")
    for url in ["http://example.com/api/access/state", "//example.com/api/access/state"] {
      let foreign = try deck.run(["api", url])
      #expect(foreign.status == 64, "\(foreign.stderr)")
      #expect(foreign.stderr.contains("not a URL"), "\(foreign.stderr)")
    }
    let badField = try deck.run(["api", "/api/invites/accept", "-f", "token"])
    #expect(badField.status == 64 && badField.stderr.contains("key=value"), "\(badField.stderr)")
    _ = server
  }

  /// A status of 300 or more prints the body and exits with the usual code.
  @Test func anErrorPrintsTheBodyAndExitsWithItsCode() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    // Signed out, no token goes: the service's 401 is exit 77, its body on stdout.
    let signedOut = try deck.run(["api", "/api/access/state"])
    #expect(signedOut.status == 77, "\(signedOut.stderr)")
    #expect(!signedOut.stdout.isEmpty, "the body is printed")
    #expect(signedOut.stderr.contains("Not signed in"), "\(signedOut.stderr)")
    try deck.signUp("api-writer@example.test")
    // A POST from -f fields: a JSON body; the service's 4xx and its message.
    let accept = try deck.run(["api", "/api/invites/accept", "-f", "token=no-such-token"])
    #expect([1, 65].contains(accept.status), "\(accept.status) \(accept.stderr)")
    #expect(try json(accept.stdout) is [String: Any], "the error body, as JSON: \(accept.stdout)")
    let traced = try deck.run(["api", "/api/invites/accept", "-F", "token=@-", "--trace"], stdin: "from-stdin")
    #expect(traced.stderr.contains("> POST "), "\(traced.stderr)")
    #expect(traced.stderr.contains("/api/invites/accept"), "\(traced.stderr)")
    _ = try deck.run(["sandbox", "fault", "add", "/api/access/state", "--status", "503"])
    let failing = try deck.run(["api", "/api/access/state"])
    #expect(failing.status == 69, "\(failing.stderr)")
  }

  /// The token goes to the environment's own origins only: a service URL replaced by
  /// `DECK_FLYR_URL` (another origin of the same server) gets none, unless the user opts in;
  /// the geocoder never gets one.
  @Test func theTokenGoesOnlyWhereThePolicyLetsIt() throws {
    let (server, deck) = try DeckCLI.signedIn()
    let token = try deck.run(["auth", "token"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(token.count > 20)
    let own = try deck.run(["api", "/api/access/state", "--trace=body"])
    #expect(own.status == 0, "\(own.stderr)")
    #expect(own.stderr.contains("> Authorization: Bearer [REDACTED]"), "\(own.stderr)")
    let elsewhere = server.url.replacingOccurrences(of: "127.0.0.1", with: "localhost")
    let withheld = try deck.run(
      ["api", "/api/access/state", "--trace=body"], environment: ["DECK_FLYR_URL": elsewhere])
    #expect(withheld.status == 77, "no token, so 401: \(withheld.stderr)")
    #expect(withheld.stderr.contains("token withheld from \(elsewhere)"), "\(withheld.stderr)")
    #expect(!withheld.stderr.lowercased().contains("> authorization"), "\(withheld.stderr)")
    let optedIn = try deck.run(
      ["api", "/api/access/state"],
      environment: ["DECK_FLYR_URL": elsewhere, "DECK_SEND_TOKEN_TO_OVERRIDES": "1"])
    #expect(optedIn.status == 0, "\(optedIn.stderr)")
    let geocoder = try deck.run(
      ["api", "-X", "GET", "/geocoder/locations/onelineaddress", "-f", "address=1 Main St", "--trace=body"])
    #expect(!geocoder.stderr.lowercased().contains("> authorization"), "\(geocoder.stderr)")
    for result in [own, withheld, optedIn, geocoder] {
      #expect(!result.stdout.contains(token) && !result.stderr.contains(token))
    }
  }

  /// Tab completes the services and the contracts' paths, in the REPL and in a real bash.
  @Test func tabCompletesServicesAndPaths() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let repl = try PseudoTerminal(deck: deck, [])
    try repl.expect("deck (local)> ")
    repl.send("api --service fl\t")
    try repl.expect("--service flyr ")
    repl.send("/api/invites/va\t")
    try repl.expect("/api/invites/validate ")
    repl.send("\u{15}exit\r")
    #expect(try repl.waitForExit() == 0)

    let bash = try ShellCompletionPTYTests.shell("bash", deck: deck)
    try bash.expect("READY> ", timeout: 20)
    bash.send("deck api --service nud")
    var completed = false
    for _ in 0..<5 where !completed {
      bash.send("\t")
      completed = (try? bash.expect("nudge", timeout: 4)) != nil
    }
    #expect(completed, "bash completed no service")
    bash.send(" /api/access/st")
    completed = false
    for _ in 0..<5 where !completed {
      bash.send("\t")
      completed = (try? bash.expect("state", timeout: 4)) != nil
    }
    #expect(completed, "bash completed no path")
    bash.send("\u{01}printf '<%s>\\n' \r")
    try bash.expect("<api>")
    let rest = try bash.expect("READY> ")
    #expect(rest.contains("<nudge>") && rest.contains("</api/access/state>"), "\(rest)")
  }
}
