import Foundation
import TestSupport
import Testing

/// Issue 44 through the real binaries: a scenario file is code, so what its steps may do is
/// bounded (finding 2: no line of a title's choice in a report, no file written outside the
/// run, no `qa run` inside one; finding 3: no local file copied into a report; finding 4: no
/// `--env` of a step's own; finding 13: a secret in no form in a report).
@Suite("deck qa, hostile scenarios", .endToEndTimeLimit)
struct QASecurityEndToEndTests {
  static func scenario(_ deck: DeckCLI, _ name: String, steps: String, header: String = "") throws -> String {
    try QAEndToEndTests.write(
      deck, name,
      """
      module: brokerage
      scenarios:
        - id: s
          title: "x\\r\\necho pwned"
          tags: [readonly]
      \(header)
          steps:
      \(steps)
      """)
  }

  /// The hostile scenario of the issue: a title holding "\r\necho pwned" gives no line of its
  /// own in any report, and a step that would write a report into ~/.bashrc is refused.
  @Test func aHostileTitleAddsNoLineAndNoStepWritesOutsideTheRun() throws {
    let (server, deck) = try QAEndToEndTests.served()
    let bashrc = deck.home + "/.bashrc"
    try Data("# mine\n".utf8).write(to: URL(fileURLWithPath: bashrc))
    let inner = try Self.scenario(
      deck, "inner.yaml",
      steps: """
              - run: brokerage search keller --json
                expect: {exit: 3}
        """)
    for format in ["tap", "junit", "json"] {
      let out = deck.home + "/report." + format
      let result = try deck.run(["qa", "run", inner, "--report", format, "--out", out])
      #expect(result.status == 1, "\(result.stderr)")
      let text = try String(contentsOfFile: out, encoding: .utf8)
      #expect(!text.unicodeScalars.contains("\r"), "\(format)")
      let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(!lines.contains { $0.hasPrefix("echo pwned") }, "\(format): \(text)")
    }

    let nested = try Self.scenario(
      deck, "nested.yaml",
      steps: """
              - run: brokerage search keller --json
              - run: qa run \(inner) --report tap --out \(bashrc)
        """)
    let refused = try deck.run(["qa", "run", nested, "--report", "tap"])
    #expect(refused.status == 64, "\(refused.all)")
    #expect(refused.stderr.contains("nested.yaml:9: run: a step may not run deck qa run"), "\(refused.stderr)")
    #expect(refused.stdout.isEmpty)

    let photo = try Self.scenario(
      deck, "photo.yaml", steps: "        - run: prefs photo get --output \(bashrc)\n          expect: {exit: 77}")
    let outside = try deck.run(["qa", "run", photo, "--report", "json"])
    #expect(outside.status == 64, "\(outside.all)")
    #expect(outside.stderr.contains("photo.yaml:8: run: --output \(bashrc) is outside the run's working directory"))
    #expect(outside.stderr.contains("--allow-writes-outside"))
    // Named by the operator, the directory is allowed (the step runs: nobody is signed in).
    let allowed = try deck.run(["qa", "run", photo, "--report", "json", "--allow-writes-outside", deck.home])
    #expect(allowed.status == 0, "\(allowed.all)")

    // A path known only when the step runs is checked then: the step is refused, nothing written.
    let late = try Self.scenario(
      deck, "late.yaml", steps: "        - run: prefs photo get --output ${target}\n          expect: {exit: 77}",
      header: "    vars: {target: \(bashrc)}")
    let lateResult = try deck.run(["qa", "run", late, "--report", "json"])
    #expect(lateResult.status == 1, "\(lateResult.all)")
    let step = try #require(QAEndToEndTests.steps(try QAEndToEndTests.report(lateResult)["s"]).first)
    #expect((step["message"] as? String)?.hasPrefix("refused: --output \(bashrc) is outside") == true, "\(step)")
    #expect(try String(contentsOfFile: bashrc, encoding: .utf8) == "# mine\n")

    // Under ${WORKDIR}, the scenario's own directory, a step writes freely.
    let own = try Self.scenario(
      deck, "own.yaml", steps: "        - run: prefs photo get --output ${WORKDIR}/me.jpg\n          expect: {exit: 77}"
    )
    let ownResult = try deck.run(["qa", "run", own, "--report", "json"])
    #expect(ownResult.status == 0, "\(ownResult.all)")
    _ = server
  }

  /// A step cannot copy a local file into a report: a script runs only from the step's stdin,
  /// and a step that reads a file from outside the run keeps its output out of the report.
  @Test func noLocalFileReachesAReport() throws {
    let (server, deck) = try QAEndToEndTests.served()
    let key = deck.home + "/id_ed25519"
    let secretLine = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"
    try Data("-----BEGIN OPENSSH PRIVATE KEY-----\n\(secretLine)\n-----END OPENSSH PRIVATE KEY-----\n".utf8).write(
      to: URL(fileURLWithPath: key))
    let script = try Self.scenario(deck, "script.yaml", steps: "        - run: run --keep-going \(key)")
    let refused = try deck.run(["qa", "run", script, "--report", "junit"])
    #expect(refused.status == 64, "\(refused.all)")
    #expect(refused.stderr.contains("script.yaml:8: run: a step runs a script only from its stdin (run -)"))
    #expect(!refused.all.contains(secretLine) && !refused.all.contains("BEGIN OPENSSH"))

    let reads = try Self.scenario(deck, "reads.yaml", steps: "        - run: mbti submit --answers=\(key)")
    for format in ["junit", "tap", "json"] {
      let result = try deck.run(["qa", "run", reads, "--report", format])
      #expect(result.status == 1, "\(result.all)")
      #expect(!result.all.contains(secretLine) && !result.all.contains("OPENSSH"), "\(format): \(result.all)")
      #expect(result.stdout.contains("withheld: the step reads a file from outside the run"), "\(format)")
    }

    // The scenario's own script is echoed as before: its lines are the scenario's.
    let own = try Self.scenario(
      deck, "own.yaml",
      steps: """
              - run: run --keep-going -
                stdin: "brokerage search keller\\nnosuchcommand here\\n"
        """)
    let ownResult = try deck.run(["qa", "run", own, "--report", "json"])
    #expect(ownResult.status == 1, "\(ownResult.all)")
    #expect(ownResult.stdout.contains("stdin:2: nosuchcommand here: exit 64"), "\(ownResult.stdout)")
    _ = server
  }

  /// A step runs against `qa run --env`: its own `--env`, in any spelling and in its script,
  /// is refused before anything runs.
  @Test(arguments: [
    "        - run: brokerage search keller --env production",
    "        - run: brokerage search keller --env=production",
    "        - run: deck brokerage search keller -e production",
    "        - run: run -\n          stdin: \"brokerage search keller --env production\\n\"",
  ])
  func aStepNamesNoEnvironmentOfItsOwn(_ steps: String) throws {
    let deck = try DeckCLI()
    let file = try Self.scenario(deck, "env.yaml", steps: steps)
    let result = try deck.run(["qa", "run", file, "--env", "local", "--report", "json"])
    #expect(result.status == 64, "\(result.all)")
    #expect(result.stderr.contains("env.yaml:8: run: "), "\(result.stderr)")
    #expect(result.stderr.contains("every step runs against qa run --env"), "\(result.stderr)")
  }

  /// A from-env secret reaches no report, however a filter or a server turned it: refused at
  /// load when a jq expression transforms it, masked when it comes back percent-encoded.
  @Test func aSecretReachesNoReportInAnyForm() throws {
    let (server, deck) = try QAEndToEndTests.served()
    let secret = "Acc0unt Secret/55+ü"
    let transform = try Self.scenario(
      deck, "transform.yaml", steps: "        - run: brokerage search keller --json --jq '\"${account}\" | @base64'",
      header: "    from-env: {account: QA_ACCOUNT_SECRET}")
    let refused = try deck.run(
      ["qa", "run", transform, "--report", "json"], environment: ["QA_ACCOUNT_SECRET": secret])
    #expect(refused.status == 64, "\(refused.all)")
    #expect(refused.stderr.contains("jq applies @base64 to the secret ${account}"), "\(refused.stderr)")

    let traced = try Self.scenario(
      deck, "traced.yaml",
      steps: "        - run: brokerage search \"${account}\" --trace\n          expect: {stdout: never-there}",
      header: "    from-env: {account: QA_ACCOUNT_SECRET}")
    for format in ["json", "junit", "tap"] {
      let result = try deck.run(["qa", "run", traced, "--report", format], environment: ["QA_ACCOUNT_SECRET": secret])
      #expect(result.status == 1, "\(result.all)")
      #expect(result.stdout.contains("[REDACTED]"), "\(format): \(result.stdout)")
      for form in ["Secret", "Acc0unt", "%2F55", "%C3%BC"] {
        #expect(!result.all.contains(form), "\(format): \(form) in \(result.all)")
      }
    }
    _ = server
  }

  /// `contract check` against a server that reflects the (opaque, non-JWT) token it was sent,
  /// raw and base64-encoded, and answers with control characters: no report or table shows
  /// the token in either form, nor a control character, nor a line of the server's choice.
  @Test func aContractReportHoldsNoReflectedTokenNorControlCharacter() throws {
    let token = "opaque-Token-4f9c2a71e8"
    let encoded = Data(token.utf8).base64EncodedString()
    let reflecting = try HostileServer(routes: [
      .init("GET", "/questions/", headers: ["Content-Type": "text/x-\(token); b=\(encoded)"], body: "x")
    ])
    let hostile = try HostileServer(routes: [
      .init("GET", "/questions/", body: #"["\u001b]0;t\u0007\r\necho pwned \u0085 \u2028 done"]"#)
    ])
    for server in [reflecting, hostile] {
      var deck = try DeckCLI()
      deck.environment["DECK_ENV"] = "local"
      deck.environment["DECK_NUDGE_URL"] = server.url
      deck.environment["DECK_TOKEN"] = token
      for report in [["--report", "json"], ["--report", "junit"], ["--json"], []] {
        let result = try deck.run(["contract", "check", "--operation", "getQuestions", "--rate", "50"] + report)
        #expect(result.status == 1, "\(report): \(result.all)")
        #expect(result.stdout.contains("[REDACTED]") || server === hostile, "\(report): \(result.stdout)")
        #expect(!result.all.contains(token) && !result.all.contains(encoded.dropLast(4)), "\(report): \(result.all)")
        #expect(
          !result.stdout.unicodeScalars.contains {
            $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
          },
          "\(report): \(result.stdout.debugDescription)")
        #expect(!result.stdout.unicodeScalars.contains("\u{2028}"), "\(report)")
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(!lines.contains { $0.hasPrefix("echo pwned") }, "\(report): \(result.stdout)")
      }
    }
  }
}
