import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `deck sandbox logs`: the built deck against `deck sandbox serve`, reading, filtering and
/// following the requests the sandbox answered.
@Suite("deck sandbox logs", .endToEndTimeLimit)
struct SandboxLogsEndToEndTests {
  func curl(_ url: String) throws {
    _ = try DeckCLI.execute("/usr/bin/curl", ["-s", "-o", "/dev/null", url], stdin: nil, environment: [:], in: "/")
  }

  @Test func logsShowsFiltersAndFollowsTheSandboxsRequests() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let search = try deck.run(["brokerage", "search", "keller"])
    #expect(search.status == 0, "\(search.stderr)")
    try curl(server.url + "/api/nope")

    let table = try deck.run(["sandbox", "logs"])
    #expect(table.status == 0, "\(table.stderr)")
    #expect(table.stdout.contains("[200] GET /api/brokerages/search?"), "\(table.stdout)")
    #expect(table.stdout.contains("[404] GET /api/nope"), "\(table.stdout)")

    let failures = try deck.run(["sandbox", "logs", "--status", "4xx", "--json"])
    #expect(failures.status == 0, "\(failures.stderr)")
    let lines = failures.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 1, "one JSON document per request: \(failures.stdout)")
    let entry = try #require(try json(lines.first ?? "") as? [String: Any])
    #expect(entry["path"] as? String == "/api/nope")
    #expect(entry["status"] as? Int == 404)

    // Bad filter values are usage errors: nothing is sent.
    for bad in [["--status", "6xx"], ["--since", "5x"], ["--limit", "0"], ["--method", "G T"], ["--path", "api"]] {
      let refused = try deck.run(["sandbox", "logs"] + bad)
      #expect(refused.status == 64, "\(bad): \(refused.all)")
    }
    #expect(
      try deck.run(["sandbox", "logs", "--status", "4xx"], environment: ["DECK_SANDBOX_ADMIN_TOKEN": "nope"]).status
        == 77)

    // --follow prints what there is, then a request made after it started; Ctrl-C ends it.
    let follow = try DeckCLI.start(
      DeckCLI.binary, ["sandbox", "logs", "--follow", "--json", "--path", "/api/**"], stdin: nil,
      environment: deck.environment, in: deck.home)
    let before = follow.waitForStdout(timeout: 30) { $0.contains("/api/nope") }
    #expect(before.contains("/api/nope"), "\(follow.stderr)")
    try curl(server.url + "/api/after-follow")
    let after = follow.waitForStdout(timeout: 30) { $0.contains("/api/after-follow") }
    #expect(after.contains("/api/after-follow"), "\(follow.stderr)")
    follow.signal(SIGINT)
    // One-shot deck ends on SIGINT itself, which a shell reports as 130.
    let ended = try follow.finish(timeout: 30)
    #expect([130, SIGINT].contains(ended.status), "\(ended.stderr)")
  }

  @Test func logsCompletesLikeEveryCommand() throws {
    let script = try DeckCLI().run(["completion", "bash"])
    #expect(script.stdout.contains("logs"))
    #expect(script.stdout.contains("--bodies"))
  }
}
