import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Issue 28: `deck contract check` against a served sandbox, which is generated from the same
/// documents and so must show no drift; then against the same sandbox with a shape fault,
/// where exactly the expected finding must be reported.
@Suite("deck contract", .endToEndTimeLimit)
struct ContractCheckEndToEndTests {
  /// A served sandbox, a signed-in athlete and the environment's fixtures file.
  static func setUp() throws -> (SandboxProcess, DeckCLI) {
    let (server, deck) = try DeckCLI.signedIn()
    let fixtures = try deck.run(["contract", "fixtures"])
    #expect(fixtures.status == 0, "\(fixtures.stderr)")
    return (server, deck)
  }

  static func report(_ result: DeckCLI.Result) throws -> [String: Any] {
    try #require(try json(result.stdout) as? [String: Any], "\(result.stdout)\n\(result.stderr)")
  }

  static func operations(_ report: [String: Any]) -> [[String: Any]] {
    report["operations"] as? [[String: Any]] ?? []
  }

  static func findings(_ report: [String: Any]) -> [[String: Any]] {
    operations(report).flatMap { $0["findings"] as? [[String: Any]] ?? [] }
  }

  @Test func theSandboxSpeaksEveryContract() throws {
    let (server, deck) = try Self.setUp()
    let result = try deck.run(["contract", "check", "--rate", "50", "--json"])
    let report = try Self.report(result)
    #expect(result.status == 0, "\(Self.findings(report))\n\(result.stderr)")
    #expect(Self.findings(report).isEmpty)
    let results = Self.operations(report)
    let passed = Set(results.filter { $0["result"] as? String == "passed" }.compactMap { $0["operation"] as? String })
    // One operation of every service with a contract, public and signed-in alike.
    for id in [
      "getUser", "searchBrokerages", "getAccessState", "getQuestions", "getPlayerPreferences", "geocodeOneLineAddress",
      "getNextSession", "getObjectInfo",
    ] {
      #expect(passed.contains(id), "\(id) did not pass: \(results.first { $0["operation"] as? String == id } ?? [:])")
    }
    // Nothing that writes was sent.
    #expect(
      results.allSatisfy { ["GET", "HEAD"].contains($0["method"] as? String) || $0["result"] as? String == "skipped" })
    _ = server
  }

  /// Each kind of drift a backend can show is reported once, at its JSON path.
  @Test(arguments: [
    (["--drop-field", "name"], "body", "$[0].name", "required"),
    (["--retype-field", "name"], "body", "$[0].name", "string"),
    (["--enum-value", "role=unheard-of"], "body", "$.role", "one of"),
    (["--status", "418"], "status", "", "documented"),
  ])
  func driftIsFoundWhereItIs(fault: [String], kind: String, path: String, expected: String) throws {
    let (server, deck) = try Self.setUp()
    let (target, operation) =
      fault.first == "--enum-value"
      ? ("/api/access/state", "getAccessState") : ("/api/brokerages/search", "searchBrokerages")
    let added = try deck.run(["sandbox", "fault", "add", target] + fault)
    #expect(added.status == 0, "\(added.stderr)")
    let result = try deck.run(["contract", "check", "--rate", "50", "--operation", operation, "--json"])
    #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
    let findings = Self.findings(try Self.report(result))
    #expect(findings.count == 1, "\(findings)")
    let finding = try #require(findings.first)
    #expect(finding["kind"] as? String == kind)
    #expect(finding["path"] as? String == path, "\(finding)")
    #expect((finding["expected"] as? String)?.contains(expected) == true, "\(finding)")
    #expect(result.stderr.contains("Drift: 1 finding in 1 operation."))
    _ = server
  }

  @Test func aBaselineAcceptsKnownFindingsAndOnlyNewOnesFail() throws {
    let (server, deck) = try Self.setUp()
    let baseline = deck.home + "/baseline.json"
    _ = try deck.run(["sandbox", "fault", "add", "/api/brokerages/search", "--drop-field", "name"])
    let write = try deck.run(["contract", "check", "--rate", "50", "--baseline", baseline, "--write-baseline"])
    #expect(write.status == 0, "\(write.stderr)")
    #expect(write.stderr.contains("Wrote 1 accepted finding"))
    let known = try deck.run(["contract", "check", "--rate", "50", "--baseline", baseline])
    #expect(known.status == 0, "\(known.stdout)\n\(known.stderr)")
    #expect(known.stdout.contains("1 accepted by the baseline"))
    // Accepted drift is no plain pass: the table, the JSON and the JUnit report say so.
    #expect(known.stdout.contains("~ flyr searchBrokerages"), "\(known.stdout)")
    #expect(known.stdout.contains("accepted: $[0].name"), "\(known.stdout)")
    let accepted = try deck.run(["contract", "check", "--rate", "50", "--baseline", baseline, "--json"])
    let search = Self.operations(try Self.report(accepted)).first { $0["operation"] as? String == "searchBrokerages" }
    #expect(search?["result"] as? String == "accepted", "\(search ?? [:])")
    #expect((search?["accepted"] as? [Any])?.count == 1)
    let junit = deck.home + "/accepted.xml"
    _ = try deck.run(["contract", "check", "--rate", "50", "--baseline", baseline, "--report", "junit", "--out", junit])
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains(#"<skipped message="accepted: 1 finding accepted by the baseline"/>"#), "\(xml)")
    try Self.expectValidJUnit(junit, deck)

    _ = try deck.run(["sandbox", "fault", "add", "/api/access/state", "--drop-field", "hasAccess"])
    let new = try deck.run(["contract", "check", "--rate", "50", "--baseline", baseline])
    #expect(new.status == 1)
    #expect(new.stdout.contains("$.hasAccess"), "\(new.stdout)")
    _ = server
  }

  /// An entry of the baseline that no answer shows any more is reported, in every form.
  @Test func aBaselineEntryThatMatchesNothingIsStale() throws {
    let (server, deck) = try Self.setUp()
    let baseline = deck.home + "/baseline.json"
    _ = try deck.run(["sandbox", "fault", "add", "/api/brokerages/search", "--drop-field", "name"])
    _ = try deck.run(["contract", "check", "--rate", "50", "--baseline", baseline, "--write-baseline"])
    _ = try deck.run(["sandbox", "fault", "clear"])
    let fixed = try deck.run(["contract", "check", "--rate", "50", "--baseline", baseline])
    #expect(fixed.status == 0, "\(fixed.stderr)")
    #expect(
      fixed.stdout.contains("stale baseline entry: searchBrokerages $[0].name"), "\(fixed.stdout)")
    #expect(fixed.stdout.contains("1 stale baseline entry"), "\(fixed.stdout)")
    let report = try Self.report(try deck.run(["contract", "check", "--rate", "50", "--baseline", baseline, "--json"]))
    let stale = try #require(report["stale"] as? [[String: Any]])
    #expect(stale.count == 1 && stale.first?["operation"] as? String == "searchBrokerages", "\(stale)")
    #expect((report["counts"] as? [String: Any])?["stale"] as? Int == 1)
    let junit = deck.home + "/stale.xml"
    _ = try deck.run(["contract", "check", "--rate", "50", "--baseline", baseline, "--report", "junit", "--out", junit])
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains(#"<property name="stale-baseline-entry" value="searchBrokerages"#), "\(xml)")
    try Self.expectValidJUnit(junit, deck)
    // An entry whose operation was not checked this time is not stale.
    let other = try deck.run(["contract", "check", "--rate", "50", "--baseline", baseline, "--service", "nudge"])
    #expect(!other.stdout.contains("stale"), "\(other.stdout)")
    _ = server
  }

  /// The report validates against the JUnit schema the QA reports are checked with.
  static func expectValidJUnit(_ path: String, _ deck: DeckCLI) throws {
    let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("QATests/junit.xsd").path
    let lint = try DeckCLI.execute(
      "/usr/bin/xmllint", ["--noout", "--schema", schema, path], stdin: nil, environment: deck.environment,
      in: deck.home)
    #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
  }

  @Test func reportsAreJUnitOrJSONFilesWithoutTokens() throws {
    let (server, deck) = try Self.setUp()
    _ = try deck.run(["sandbox", "fault", "add", "/api/brokerages/search", "--retype-field", "name"])
    let junit = deck.home + "/contract.xml"
    let result = try deck.run(["contract", "check", "--rate", "50", "--report", "junit", "--out", junit, "--trace"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("Report: \(junit)"))
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    let document = try XMLDocumentSummary(xml)
    #expect(document.failures == 1, "\(xml)")
    #expect(
      document.testcases
        == Self.operations(try Self.report(try deck.run(["contract", "check", "--rate", "50", "--json"]))).count)
    #expect(xml.contains(#"<failure message="1 finding""#))
    try Self.expectValidJUnit(junit, deck)
    // The token went out (signed-in operations passed) but is in no report or trace.
    let token = try deck.run(["auth", "token"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(token.count > 20)
    #expect(!xml.contains(token) && !result.stderr.contains(token) && !result.stdout.contains(token))
    _ = server
  }

  @Test func onlyReadsAreEverSent() throws {
    let (server, deck) = try Self.setUp()
    let post = try deck.run(["contract", "check", "--operation", "submitAnswers"])
    #expect(post.status == 64)
    #expect(post.stderr.contains("sends only GET and HEAD"), "\(post.stderr)")
    let fixtures = deck.home + "/fixtures.yml"
    try "parameters: {}\noperations:\n  submitAnswers:\n    x: 1\n".write(
      toFile: fixtures, atomically: true, encoding: .utf8)
    let refused = try deck.run(["contract", "check", "--fixtures", fixtures])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("\(fixtures):3: submitAnswers changes data"), "\(refused.stderr)")
    let list = try json(try deck.run(["contract", "list", "--json"]).stdout) as? [[String: Any]] ?? []
    #expect(list.contains { $0["operation"] as? String == "submitAnswers" && $0["checked"] as? Bool == false })
    _ = server
  }

  @Test func inconclusiveAnswersAndThreeRateLimitsStopTheCheck() throws {
    let (server, deck) = try Self.setUp()
    _ = try deck.run(["sandbox", "fault", "add", "/api/brokerages/search", "--status", "401"])
    let unauthorized = try deck.run(["contract", "check", "--rate", "50", "--operation", "searchBrokerages", "--json"])
    #expect(unauthorized.status == 0, "401 is no drift: \(unauthorized.stderr)")
    #expect(Self.operations(try Self.report(unauthorized)).first?["result"] as? String == "inconclusive")
    _ = try deck.run(["sandbox", "fault", "clear"])
    _ = try deck.run(["sandbox", "fault", "add", "/**", "--status", "429", "--retry-after", "0"])
    let limited = try deck.run(["contract", "check", "--rate", "50", "--json"])
    #expect(limited.status == 69, "\(limited.stderr)")
    let report = try Self.report(limited)
    #expect(report["requests"] as? Int == 3, "three 429s in a row, then nothing more")
    _ = server
  }

  /// Signed out, the public operations are checked and the rest are skipped, saying why.
  @Test func signedOutTheCheckSkipsWhatNeedsAToken() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let fixtures = try deck.run(["contract", "fixtures"])
    #expect(fixtures.status == 0, "public operations only: \(fixtures.stderr)")
    let result = try deck.run(["contract", "check", "--rate", "50", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let operations = Self.operations(try Self.report(result))
    let getUser = operations.first { $0["operation"] as? String == "getUser" }
    #expect(getUser?["result"] as? String == "skipped", "\(getUser ?? [:])")
    #expect((getUser?["reason"] as? String)?.hasPrefix("sign in to check") == true, "\(getUser ?? [:])")
    let search = operations.first { $0["operation"] as? String == "searchBrokerages" }
    #expect(search?["result"] as? String == "passed", "\(search ?? [:])")
    let one = try deck.run(["contract", "check", "--operation", "getUser"])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stdout.contains("sign in to check"), "\(one.stdout)")
  }

  @Test func nothingListeningIsUnavailable() throws {
    var deck = try DeckCLI()
    deck.environment["DECK_ENV"] = "local"
    deck.environment["DECK_FLYR_URL"] = "http://127.0.0.1:9"
    let result = try deck.run(["contract", "check", "--operation", "searchBrokerages", "--rate", "50"])
    #expect(result.status == 69, "\(result.stderr)")
    #expect(result.stderr.contains("Could not reach environment \"local\""))
  }
}

/// Counts of a JUnit document, read with Foundation's XML parser (so it is well-formed XML).
struct XMLDocumentSummary {
  var testcases = 0
  var failures = 0

  init(_ xml: String) throws {
    final class Delegate: NSObject, XMLParserDelegate {
      var testcases = 0
      var failures = 0
      func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
      ) {
        if name == "testcase" { testcases += 1 }
        if name == "failure" { failures += 1 }
      }
    }
    let delegate = Delegate()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = delegate
    guard parser.parse() else { throw XMLError.invalid(parser.parserError?.localizedDescription ?? "?") }
    testcases = delegate.testcases
    failures = delegate.failures
  }

  enum XMLError: Error { case invalid(String) }
}
