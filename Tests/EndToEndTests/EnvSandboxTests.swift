import Foundation
import TestSupport
import Testing

/// Issue 31: pointing an environment at one sandbox is one step (`deck env add NAME --sandbox
/// URL`, `deck env set NAME --all URL`), with its admin token when the sandbox is this user's.
@Suite("deck env --sandbox and --all", .endToEndTimeLimit)
struct EnvSandboxEndToEndTests {
  /// `deck sandbox serve --port 0` run as this deck's user (same HOME, config and runtime
  /// directory); its first three stdout lines.
  func serve(_ deck: DeckCLI) throws -> (ChildProcess, [String]) {
    let child = try ChildProcess(
      DeckCLI.binary, ["sandbox", "serve", "--port", "0", "--db", deck.home + "/served.sqlite"],
      environment: deck.environment, directory: deck.home)
    let lines = child.lines(3, timeout: 60)
    try #require(lines.count == 3, "\(child.stdout)\(child.stderr)")
    return (child, lines)
  }

  func config(_ deck: DeckCLI) throws -> String {
    try String(contentsOfFile: deck.configDirectory + "/config.yml", encoding: .utf8)
  }

  func services(_ deck: DeckCLI, _ name: String) throws -> [String: String] {
    let shown = try #require(try json(try deck.run(["env", "show", name, "--json"]).stdout) as? [String: Any])
    return try #require(shown["services"] as? [String: String])
  }

  @Test func aServedSandboxOfThisUserIsOneStepWithItsAdminToken() throws {
    let deck = try DeckCLI()
    let (server, lines) = try serve(deck)
    defer {
      server.signal(SIGINT)
      _ = server.wait(timeout: 10)
    }
    let url = lines[0]
    // serve's first three lines are as before; the one-step command is a hint on stderr.
    #expect(url.hasPrefix("http://127.0.0.1:"))
    #expect(lines[1].hasPrefix("sandbox-admin-token="))
    #expect(lines[2].hasPrefix("sandbox-anon-key="))
    let token = String(lines[1].dropFirst("sandbox-admin-token=".count))
    #expect(
      eventually { server.stderr.contains("in one step: deck env add NAME --sandbox \(url)") }, "\(server.stderr)")

    let added = try deck.run(["env", "add", "qa", "--sandbox", url])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stderr.contains("Added sandbox environment \"qa\": every service at \(url)."), "\(added.stderr)")
    #expect(added.stderr.contains("Saved the sandbox's admin token (from the `deck sandbox serve` on 127.0.0.1:"))
    #expect(!added.all.contains(token), "never the token")
    let all = try services(deck, "local").count
    let pointed = try services(deck, "qa")
    #expect(pointed.count == all)
    #expect(pointed.values.allSatisfy { $0 == url })
    #expect(try config(deck).contains("sandbox-admin-token: \(token)"))
    // The operator endpoints take it at once.
    let status = try deck.run(["--env", "qa", "sandbox", "status", "--json"])
    #expect(status.status == 0, "\(status.stderr)")
  }

  @Test func aSandboxDeckCannotReadTheTokenOfSaysHowToGiveIt() throws {
    let other = try SandboxProcess()  // another HOME and runtime directory: not this deck's
    let deck = try DeckCLI()
    let added = try deck.run(["env", "add", "qa", "--sandbox", other.url])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stderr.contains("No admin token saved"), "\(added.stderr)")
    #expect(added.stderr.contains("deck env set qa sandbox-admin-token=TOKEN"))
    #expect(!(try config(deck)).contains("sandbox-admin-token"))
    #expect(try deck.run(["--env", "qa", "sandbox", "status"]).status != 0)
    #expect(try deck.run(["env", "set", "qa", "sandbox-admin-token=\(other.adminToken)"]).status == 0)
    #expect(try deck.run(["--env", "qa", "sandbox", "status"]).status == 0)

    let down = try deck.run(["env", "add", "down", "--sandbox", "http://127.0.0.1:9"])
    #expect(down.status == 0)
    #expect(down.stderr.contains("nothing answers at http://127.0.0.1:9 (start it with: deck sandbox serve --port 9)"))
    #expect(try deck.run(["env", "add", "both", "--from", "local", "--sandbox", other.url]).status == 64)
    #expect(try deck.run(["env", "add", "plain", "--sandbox", "http://10.1.2.3:8787"]).status == 1)
    #expect(try deck.run(["env", "list"]).stdout.contains("down") == true)
  }

  @Test func setAllPointsEveryServiceOfTheEnvironmentAtOneURL() throws {
    let deck = try DeckCLI()
    let (server, lines) = try serve(deck)
    defer {
      server.signal(SIGINT)
      _ = server.wait(timeout: 10)
    }
    let url = lines[0]
    // A sandbox environment with no URLs yet: every service, and the token.
    #expect(try deck.run(["env", "add", "qa"]).status == 0)
    let set = try deck.run(["env", "set", "qa", "sandbox=true", "--all", url])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(set.stderr.contains("Saved the sandbox's admin token"), "\(set.stderr)")
    #expect(try services(deck, "qa").values.allSatisfy { $0 == url })
    let all = try services(deck, "local").count
    #expect(try services(deck, "qa").count == all)
    #expect(try deck.run(["--env", "qa", "sandbox", "status"]).status == 0)

    // An environment with some services: those, and only those.
    #expect(try deck.run(["env", "add", "part"]).status == 0)
    #expect(
      try deck.run(["env", "set", "part", "flyr=https://a.example.com", "kiosk=https://b.example.com"]).status == 0)
    #expect(try deck.run(["env", "set", "part", "--all", "https://c.example.com/"]).status == 0)
    #expect(try services(deck, "part") == ["flyr": "https://c.example.com", "kiosk": "https://c.example.com"])
    #expect(try deck.run(["env", "set", "sandbox", "--all", url]).status == 64)
  }

  /// YAML names the settings as JSON does (issue 45, item 7: camelCase in every object deck
  /// builds; `env set` still takes config.yml's `allow-insecure-http`).
  @Test func showAsYAMLUsesTheJSONKeys() throws {
    let deck = try DeckCLI()
    #expect(try deck.run(["env", "add", "lab"]).status == 0)
    #expect(try deck.run(["env", "set", "lab", "allow-insecure-http=true", "flyr=http://10.1.2.3:8080"]).status == 0)
    let yaml = try deck.run(["env", "show", "lab", "--format", "yaml"])
    #expect(yaml.status == 0, "\(yaml.stderr)")
    #expect(yaml.stdout.contains("allowInsecureHttp: true\n"), "\(yaml.stdout)")
    #expect(yaml.stdout.contains("sandbox: false\n"))
    #expect(yaml.stdout.contains("services:\n  flyr: http://10.1.2.3:8080\n"))
    #expect(!yaml.stdout.contains("allow-insecure-http"))
    let shown = try #require(try json(try deck.run(["env", "show", "lab", "--json"]).stdout) as? [String: Any])
    #expect(shown["allowInsecureHttp"] as? Bool == true)
  }
}
