import Foundation
import TestSupport
import Testing

@Suite("deck env", .endToEndTimeLimit)
struct EnvTests {
  @Test func addSetUseShowListRemove() throws {
    let deck = try DeckCLI()
    #expect(try deck.run(["env", "add", "staging-eu", "--from", "production"]).status == 0)
    let set = try deck.run([
      "env", "set", "staging-eu", "flyr=https://staging.flyrpro.app/", "kiosk=https://kiosk.example.com",
    ])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(try deck.run(["env", "use", "staging-eu"]).status == 0)
    let shown = try #require(try json(try deck.run(["env", "show", "--json"]).stdout) as? [String: Any])
    #expect(shown["name"] as? String == "staging-eu")
    let services = try #require(shown["services"] as? [String: String])
    #expect(services["flyr"] == "https://staging.flyrpro.app")
    #expect(services["nudge"] == "https://api.nudge.starshape.in", "copied from production")
    let list = try deck.run(["env", "list"])
    #expect(list.stdout.contains("*  staging-eu"))
    let config = try String(contentsOfFile: deck.configDirectory + "/config.yml", encoding: .utf8)
    #expect(config.contains("current: staging-eu"))
    #expect(try deck.run(["env", "remove", "staging-eu"]).status == 0)
    #expect(try deck.run(["env", "show", "--json"]).stdout.contains("\"name\":\"sandbox\""))
  }

  @Test func badInputIsAUsageError() throws {
    let deck = try DeckCLI()
    #expect(try deck.run(["env", "add", "9lives"]).status == 64)
    #expect(try deck.run(["env", "use", "nowhere"]).status == 64)
    #expect(try deck.run(["env", "remove", "production"]).status == 64)
    #expect(try deck.run(["env", "set", "production", "flyrr=https://x.example.com"]).status == 64)
    let insecure = try deck.run(["env", "set", "production", "flyr=http://flyr.example.com"])
    #expect(insecure.status == 1)
    #expect(insecure.stderr.contains("allow-insecure-http"))
    #expect(try deck.run(["env", "add", "lab"]).status == 0)
    #expect(try deck.run(["env", "set", "lab", "allow-insecure-http=true", "flyr=http://10.1.2.3:8080"]).status == 0)
  }

  @Test func malformedConfigNamesTheLineAndIsKept() throws {
    let deck = try DeckCLI()
    try FileManager.default.createDirectory(atPath: deck.configDirectory, withIntermediateDirectories: true)
    let broken = "current: local\nenvironments:\n  local:\n    flyr: [oops\n"
    try broken.write(toFile: deck.configDirectory + "/config.yml", atomically: true, encoding: .utf8)
    let result = try deck.run(["env", "add", "other"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("/config.yml: line 5, column 1:"), "names the file and the line: \(result.stderr)")
    #expect(try String(contentsOfFile: deck.configDirectory + "/config.yml", encoding: .utf8) == broken)
  }

  @Test func sandboxCommandsRefuseRealEnvironmentsAndSendNothing() throws {
    var deck = try DeckCLI()
    deck.environment["DECK_FLYR_URL"] = "http://127.0.0.1:9"
    let result = try deck.run(["--env", "production", "sandbox", "reset", "--trace"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("not a sandbox"))
    #expect(!result.stderr.contains("> POST"))
  }

  @Test func anEnvironmentCopiedFromLocalReachesAServedSandbox() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI()
    #expect(try deck.run(["env", "add", "mine", "--from", "local"]).status == 0)
    var assignments = ["env", "set", "mine"]
    for service in ["flyr", "kiosk", "recruiting", "nudge", "auth", "geocoder"] {
      assignments.append("\(service)=\(server.url)")
    }
    #expect(try deck.run(assignments).status == 0)
    // The operator commands need the sandbox's admin token, which serve printed.
    let refused = try deck.run(["--env", "mine", "sandbox", "status"])
    #expect(refused.status == 77)
    #expect(refused.stderr.contains("sandbox-admin-token="))
    #expect(try deck.run(["env", "set", "mine", "sandbox-admin-token=\(server.adminToken)"]).status == 0)
    let shown = try deck.run(["env", "show", "mine"])
    #expect(!shown.all.contains(server.adminToken), "the token is never printed")
    let status = try deck.run(["--env", "mine", "sandbox", "status", "--json"])
    #expect(status.status == 0, "\(status.stderr)")
    #expect(try deck.run(["--env", "mine", "brokerage", "search", "compass"]).stdout.contains("Compass"))
  }
}
