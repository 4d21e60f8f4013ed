import Foundation
import TestSupport
import Testing

/// `deck doctor` through the binary, against a served sandbox and small test servers.
@Suite("deck doctor", .endToEndTimeLimit)
struct DoctorEndToEndTests {
  static let names = [
    "config directory", "config file", "token file", "environment", "service auth", "service flyr",
    "service kiosk", "service nudge", "service recruiting", "service geocoder", "injected faults", "account", "clock",
    "completion",
    "plugins", "sandbox", "local sandbox",
  ]

  /// A `local` deck signed in to a served sandbox, with bash as its shell and a PATH without plugins.
  func signedIn(_ server: SandboxProcess) throws -> DeckCLI {
    var deck = try DeckCLI(server: server)
    deck.environment["PATH"] = "/usr/bin:/bin"
    deck.environment["SHELL"] = "/bin/bash"
    let login = try deck.run(["auth", "login", "--email", "owner@sandbox.test", "--password-stdin"], stdin: "sandbox")
    #expect(login.status == 0, "\(login.stderr)")
    return deck
  }

  /// deck's bash completion where bash-completion looks for the user's own scripts, sourced by
  /// ~/.bashrc so that bash loads it with or without bash-completion.
  func installCompletion(_ deck: DeckCLI) throws {
    let directory = deck.home + "/data/bash-completion/completions"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try deck.run(["completion", "bash"]).stdout.write(toFile: directory + "/deck", atomically: true, encoding: .utf8)
    try "source \(directory)/deck\n".write(toFile: deck.home + "/.bashrc", atomically: true, encoding: .utf8)
  }

  /// A stand-in for the bash-completion package (Debian 12's version), installed under a data
  /// directory of XDG_DATA_DIRS, so a test does not depend on whether this machine has it.
  func fakeBashCompletion(_ deck: inout DeckCLI) throws {
    let share = deck.home + "/share"
    try FileManager.default.createDirectory(atPath: share + "/bash-completion", withIntermediateDirectories: true)
    try "# bash-completion\nBASH_COMPLETION_VERSINFO=(2 11)\n".write(
      toFile: share + "/bash-completion/bash_completion", atomically: true, encoding: .utf8)
    deck.environment["XDG_DATA_DIRS"] = share
  }

  static var hasBashCompletion: Bool {
    ["/usr/share/bash-completion/bash_completion", "/etc/bash_completion"].contains {
      FileManager.default.fileExists(atPath: $0)
    }
  }

  /// The checks of `deck doctor --json`, by name.
  func checks(_ result: DeckCLI.Result) throws -> [String: [String: Any]] {
    let list = try #require(try json(result.stdout) as? [[String: Any]], "\(result.stdout)\(result.stderr)")
    for check in list { #expect(Set(check.keys) == ["name", "status", "detail", "fix"]) }
    #expect(list.compactMap { $0["name"] as? String } == Self.names)
    return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
  }

  func statuses(_ checks: [String: [String: Any]]) -> [String: String] {
    checks.mapValues { $0["status"] as? String ?? "" }
  }

  @Test func healthyLocalIsAllOkAndExitsZero() throws {
    let server = try SandboxProcess()
    let deck = try signedIn(server)
    try installCompletion(deck)
    let result = try deck.run(["doctor", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let found = try checks(result)
    #expect(statuses(found) == Dictionary(uniqueKeysWithValues: Self.names.map { ($0, "ok") }), "\(result.stdout)")
    #expect(found.values.allSatisfy { $0["fix"] is NSNull })
    #expect((found["account"]?["detail"] as? String)?.contains("the server accepts it") == true)
    #expect((found["environment"]?["detail"] as? String)?.hasPrefix("local, selected by DECK_ENV") == true)
    #expect((found["service auth"]?["detail"] as? String)?.hasPrefix("\(server.url) answered HTTP") == true)

    let human = try deck.run(["doctor"])
    #expect(human.status == 0)
    let lines = human.stdout.split(separator: "\n")
    #expect(lines.count == Self.names.count + 1)
    #expect(lines.dropLast().allSatisfy { $0.hasPrefix("✓ ") }, "\(human.stdout)")
    #expect(lines.last == "No problems found (17 checks).")
    #expect(!human.stdout.contains("eyJ"), "never the token")
  }

  @Test func noCompletionScriptIsAWarningAndStillExitsZero() throws {
    let server = try SandboxProcess()
    var deck = try signedIn(server)
    try fakeBashCompletion(&deck)
    let result = try deck.run(["doctor"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("! completion"))
    #expect(
      result.stdout.contains(
        "fix: mkdir -p \(deck.home)/data/bash-completion/completions && deck completion bash > \(deck.home)/data/bash-completion/completions/deck"
      ), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("1 warning (of 17 checks).\n"))
  }

  /// Issue 31: on a machine without bash-completion, a script in its directories is never
  /// loaded; doctor says so and its fix works (a ~/.bashrc line), after which it is ✓.
  @Test(.enabled(if: !hasBashCompletion, "this machine has bash-completion"))
  func withoutBashCompletionTheFixSourcesTheScriptFromBashrc() throws {
    let server = try SandboxProcess()
    let deck = try signedIn(server)
    let script = deck.home + "/data/bash-completion/completions/deck"
    try installCompletion(deck)
    try FileManager.default.removeItem(atPath: deck.home + "/.bashrc")
    let found = try checks(try deck.run(["doctor", "--json"]))["completion"]
    #expect(found?["status"] as? String == "warning")
    #expect(found?["detail"] as? String == "bash-completion is not installed, so bash will not load \(script)")
    let fix = try #require(found?["fix"] as? String)
    #expect(fix == "echo 'source \(script)' >> ~/.bashrc")
    // The fix, run by bash as the user would, and bash really loads deck's completion.
    let shell = try DeckCLI.execute("/bin/bash", ["-c", fix], stdin: nil, environment: deck.environment, in: deck.home)
    #expect(shell.status == 0)
    let loaded = try DeckCLI.execute(
      "/bin/bash", ["-i", "-c", "complete -p deck"], stdin: nil, environment: deck.environment, in: deck.home)
    #expect(loaded.stdout.contains("-F __deck_words_joined deck"), "\(loaded.stdout)\(loaded.stderr)")
    let after = try checks(try deck.run(["doctor", "--json"]))["completion"]
    #expect(after?["status"] as? String == "ok", "\(after ?? [:])")
  }

  /// Issue 45: `scripts/install --prefix P` puts the bash script in P/share/bash-completion/
  /// completions, where Debian 12's bash-completion does not look. doctor says so, and its fix
  /// (a link into the user's directory) is what bash-completion then loads.
  @Test func aScriptBashCompletionDoesNotSearchIsAWarningAndTheLinkFixesIt() throws {
    let server = try SandboxProcess()
    var deck = try signedIn(server)
    try fakeBashCompletion(&deck)
    let prefix = deck.home + "/opt"
    let script = prefix + "/share/bash-completion/completions/deck"
    try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: prefix + "/share/bash-completion/completions", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: prefix + "/bin/deck", withDestinationPath: DeckCLI.binary)
    try deck.run(["completion", "bash"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
    func doctor() throws -> [String: Any]? {
      let result = try DeckCLI.execute(
        prefix + "/bin/deck", ["doctor", "--json"], stdin: nil, environment: deck.environment, in: deck.home)
      return try checks(result)["completion"]
    }
    // What the real bash-completion loads, where this machine has it.
    func loads() throws -> Bool {
      let probe = try DeckCLI.execute(
        "/bin/bash", ["-c", "source /usr/share/bash-completion/bash_completion && __load_completion deck"],
        stdin: nil, environment: deck.environment, in: deck.home)
      return probe.status == 0
    }
    let found = try doctor()
    #expect(found?["status"] as? String == "warning", "\(found ?? [:])")
    #expect((found?["detail"] as? String)?.hasSuffix("so bash will not load \(script)") == true, "\(found ?? [:])")
    let user = deck.home + "/data/bash-completion/completions"
    let fix = try #require(found?["fix"] as? String)
    #expect(fix == "mkdir -p \(user) && ln -sf \(script) \(user)/deck")
    if Self.hasBashCompletion { #expect(try !loads()) }
    let shell = try DeckCLI.execute("/bin/bash", ["-c", fix], stdin: nil, environment: deck.environment, in: deck.home)
    #expect(shell.status == 0)
    #expect(try doctor()?["status"] as? String == "ok")
    if Self.hasBashCompletion { #expect(try loads()) }
  }

  @Test func aServerThatIsDownFailsWithTheCommandThatStartsIt() throws {
    let server = try SandboxProcess()
    var deck = try signedIn(server)
    try installCompletion(deck)
    deck.environment["DECK_FLYR_URL"] = "http://127.0.0.1:9"
    let result = try deck.run(["doctor"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("✗ service flyr"))
    #expect(result.stdout.contains("connection refused"))
    #expect(result.stdout.contains("fix: deck sandbox serve --port 9"))
    #expect(result.stderr.contains("error: 1 check failed (of 17 checks)."))
    let found = try checks(try deck.run(["doctor", "--json"]))
    #expect(found["service flyr"]?["status"] as? String == "error")
    #expect(found["service flyr"]?["fix"] as? String == "deck sandbox serve --port 9")
    #expect(found["service kiosk"]?["status"] as? String == "ok")
  }

  /// Issue 31: a server that takes the connection and never answers is slow (a warning), not
  /// down, and the check still ends at 2 s.
  @Test func aServerThatNeverAnswersIsSlowAndCutOffAtTwoSeconds() throws {
    let server = try SandboxProcess()
    var deck = try signedIn(server)
    // Listens but never accepts, so a connection opens and nothing ever answers.
    let silent = try PythonServer(
      """
      import socket, sys, time
      s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
      print(s.getsockname()[1], flush=True)
      time.sleep(120)
      """)
    deck.environment["DECK_KIOSK_URL"] = "http://127.0.0.1:\(silent.port)"
    let started = Date()
    let result = try deck.run(["doctor", "--json"])
    let elapsed = Date().timeIntervalSince(started)
    #expect(result.status == 0, "a warning only: \(result.stderr)")
    #expect(elapsed < 8, "took \(elapsed) s")
    let kiosk = try checks(result)["service kiosk"]
    #expect(kiosk?["status"] as? String == "warning")
    #expect(
      kiosk?["detail"] as? String == "http://127.0.0.1:\(silent.port) is slow: no answer within 2 s", "\(kiosk ?? [:])")
    #expect(kiosk?["fix"] as? String == "see the sandbox's delay and fault rules: deck sandbox status")
  }

  /// Issue 31: with `deck sandbox delay 2000` doctor named no cause, and called what did not
  /// answer in time down. The sandbox's delay and fault rules are reported with the commands
  /// that clear them, nothing is called down, and the account check (its GET is delayed)
  /// names the delay as its fix.
  @Test func aDelayedSandboxIsNotDownAndItsInjectedFaultsAreNamed() throws {
    let server = try SandboxProcess()
    let deck = try signedIn(server)
    try installCompletion(deck)
    #expect(try deck.run(["sandbox", "delay", "2000"]).status == 0)
    #expect(try deck.run(["sandbox", "fault", "add", "/api/v1/kiosk/**", "--reset", "--times", "3"]).status == 0)
    let human = try deck.run(["doctor"])
    #expect(human.status == 0, "warnings only: \(human.stdout)\(human.stderr)")
    #expect(!human.stdout.contains("deck sandbox serve"), "\(human.stdout)")
    #expect(!human.stdout.contains("✗"), "\(human.stdout)")
    #expect(
      human.stdout.contains(
        "! injected faults     every API response is delayed by 2000 ms; 1 fault rule in force (rule 1: ANY /api/v1/kiosk/** → connection reset, 3 more times)\n"
          + "                      fix: deck sandbox delay 0 && deck sandbox fault clear\n"), "\(human.stdout)")
    #expect(
      human.stdout.contains(
        "not checked with the server: no answer within 2 s (the sandbox delays every API response by 2000 ms)\n"
          + "                      fix: deck sandbox delay 0\n"), "\(human.stdout)")
    #expect(!human.stdout.contains(server.adminToken), "never the admin token")

    let found = try checks(try deck.run(["doctor", "--json"]))
    #expect(found["injected faults"]?["status"] as? String == "warning")
    #expect(found["account"]?["status"] as? String == "warning")
    #expect(found["account"]?["fix"] as? String == "deck sandbox delay 0")
    for service in Self.names where service.hasPrefix("service ") {
      #expect(found[service]?["status"] as? String == "ok", "\(service): \(found[service] ?? [:])")
    }
    // Cleared, everything is fine again.
    #expect(try deck.run(["sandbox", "delay", "0"]).status == 0)
    #expect(try deck.run(["sandbox", "fault", "clear"]).status == 0)
    let clean = try deck.run(["doctor", "--json"])
    #expect(clean.status == 0)
    #expect(statuses(try checks(clean)) == Dictionary(uniqueKeysWithValues: Self.names.map { ($0, "ok") }))
  }

  @Test func aTokenFileOthersCanReadFails() throws {
    let server = try SandboxProcess()
    let deck = try signedIn(server)
    try installCompletion(deck)
    #expect(chmod(deck.tokenFile, 0o644) == 0)
    let result = try deck.run(["doctor", "--json"])
    #expect(result.status == 1)
    let found = try checks(result)
    #expect(found["token file"]?["status"] as? String == "error")
    #expect((found["token file"]?["detail"] as? String)?.contains("644") == true)
    #expect((found["token file"]?["fix"] as? String)?.contains("chmod 600 \(deck.tokenFile)") == true)
    #expect(found["account"]?["status"] as? String == "error")
    #expect(found["config directory"]?["status"] as? String == "ok")
  }

  @Test func aSkewedServerClockIsAWarning() throws {
    let server = try SandboxProcess()
    var deck = try signedIn(server)
    try installCompletion(deck)
    // Answers every GET with a Date header 5 minutes in the past.
    let skewed = try PythonServer(
      """
      import email.utils, http.server, time
      class H(http.server.BaseHTTPRequestHandler):
          def do_GET(self):
              self.send_response_only(200)
              self.send_header("Date", email.utils.formatdate(time.time() - 300, usegmt=True))
              self.send_header("Content-Length", "2")
              self.end_headers()
              self.wfile.write(b"ok")
          def log_message(self, *args): pass
      s = http.server.HTTPServer(("127.0.0.1", 0), H)
      print(s.server_address[1], flush=True)
      s.serve_forever()
      """)
    deck.environment["DECK_NUDGE_URL"] = "http://127.0.0.1:\(skewed.port)"
    let result = try deck.run(["doctor", "--json"])
    #expect(result.status == 0, "a warning only: \(result.stderr)")
    let found = try checks(result)
    #expect(found["clock"]?["status"] as? String == "warning")
    let detail = found["clock"]?["detail"] as? String ?? ""
    #expect(detail.contains("ahead of http://127.0.0.1:\(skewed.port)"), "\(detail)")
    #expect(detail.contains("4 min 5") || detail.contains("5 min"), "\(detail)")
    #expect((found["clock"]?["fix"] as? String)?.contains("timedatectl") == true)
    #expect(found["service nudge"]?["status"] as? String == "ok")
  }

  @Test func anHTTPSCertificateAboutToExpireIsDated() throws {
    let server = try SandboxProcess()
    var deck = try signedIn(server)
    let directory = deck.home + "/tls"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let made = try DeckCLI.execute(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "5", "-subj", "/CN=localhost", "-keyout",
        directory + "/key.pem", "-out", directory + "/cert.pem",
      ], stdin: nil, environment: ["PATH": "/usr/bin:/bin"], in: directory)
    try #require(made.status == 0, "\(made.stderr)")
    let tls = try PythonServer(
      """
      import http.server, ssl, sys
      class H(http.server.BaseHTTPRequestHandler):
          def do_GET(self):
              self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
          def log_message(self, *args): pass
      s = http.server.HTTPServer(("127.0.0.1", 0), H)
      context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
      context.load_cert_chain(sys.argv[1] + "/cert.pem", sys.argv[1] + "/key.pem")
      s.socket = context.wrap_socket(s.socket, server_side=True)
      print(s.server_address[1], flush=True)
      s.serve_forever()
      """, arguments: [directory])
    deck.environment["DECK_NUDGE_URL"] = "https://localhost:\(tls.port)"
    let nudge = try checks(try deck.run(["doctor", "--json"]))["service nudge"]
    let detail = nudge?["detail"] as? String ?? ""
    #expect(detail.contains("its certificate expires in 4 days"), "\(detail)")
    // The certificate is self-signed: deck's own requests refuse it.
    #expect(nudge?["status"] as? String == "error", "\(detail)")
  }

  /// As installed: `deck` beside `deck-sandbox`, their directory on PATH. The server program is
  /// not a plugin (issue 45: doctor said to rename it, after which no command found it).
  @Test func theLocalSandboxIsAskedAndItsDatabaseAndProcessDescribed() throws {
    var deck = try DeckCLI()
    deck.environment["PATH"] = URL(fileURLWithPath: DeckCLI.binary).deletingLastPathComponent().path + ":/usr/bin:/bin"
    let before = try checks(try deck.run(["doctor", "--json"]))
    #expect(
      before["environment"]?["detail"] as? String
        == "sandbox, selected by default (a local deck-sandbox server that deck starts when a command needs it)")
    #expect(before["plugins"]?["status"] as? String == "ok")
    #expect(before["plugins"]?["detail"] as? String == "none on PATH")
    #expect(try deck.run(["plugins", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    #expect(
      (before["service flyr"]?["detail"] as? String)?.hasPrefix("the local sandbox at http://127.0.0.1:") == true)
    #expect(before["service flyr"]?["status"] as? String == "ok")
    #expect(before["clock"]?["status"] as? String == "ok")
    #expect(before["account"]?["status"] as? String == "warning")
    #expect(before["account"]?["fix"] as? String == "deck auth login --email EMAIL --password-stdin")
    let sandbox = try #require(before["sandbox"]?["detail"] as? String)
    #expect(sandbox.hasPrefix(deck.home + "/data/deck/sandbox.sqlite: "), "\(sandbox)")
    // Every migration this deck knows is applied: "schema version N of N".
    let version = try #require(sandbox.firstMatch(of: /schema version (\d+) of (\d+)/))
    #expect(version.1 == version.2)
    #expect(before["sandbox"]?["status"] as? String == "ok")
    // The process that doctor's own probes started.
    let process = try #require(before["local sandbox"]?["detail"] as? String)
    #expect(process.hasPrefix("pid "), "\(process)")
    #expect(process.contains("stops after 900 s idle"), "\(process)")
    #expect(before["local sandbox"]?["status"] as? String == "ok")
    _ = try deck.run(["sandbox", "stop"])
    let stopped = try checks(try deck.run(["doctor", "--json", "--env", "local"]))
    #expect((stopped["local sandbox"]?["detail"] as? String)?.hasPrefix("not running") == true)
  }

  @Test func helpDocumentsTheExitCodes() throws {
    let deck = try DeckCLI()
    let help = try deck.run(["doctor", "--help"])
    #expect(help.stdout.contains("1    a check failed (warnings alone exit 0)"))
  }
}
