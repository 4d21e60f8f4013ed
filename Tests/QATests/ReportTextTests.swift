import DeckCore
import Foundation
import Testing

@testable import DeckQA

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Issue 44, findings 2 and 13: no control character reaches a report raw (a title with
/// "\r\n" in it cannot add a line to a file a shell reads), and a secret reaches no report in
/// any encoding.
@Suite struct ReportTextTests {
  /// Every kind of control: C0 (with CR LF, which Swift counts as one Character), ESC, DEL,
  /// C1 (NEL, CSI), and the line and paragraph separators.
  static let hostile = "x\r\necho pwned\n\u{1B}]0;t\u{7}\u{7F}\u{85}echo nel\u{9B}31m\u{2028}echo ls\u{2029}\tz\\n"

  static func results(title: String) -> [ScenarioResult] {
    var scenario = ReportTests.scenario("b-1", module: "brokerage")
    scenario.title = title
    var failing = ReportTests.scenario("b-2", module: "brokerage")
    failing.title = title
    var step = ReportTests.step(.failed, message: title)
    step.stdout = title
    step.stderr = title
    step.actual = title
    step.line = title
    return [
      ScenarioResult(scenario: scenario, status: .passed, steps: [], seconds: 1),
      ScenarioResult(scenario: failing, status: .failed, steps: [step], seconds: 1),
      ScenarioResult(scenario: scenario, status: .skipped(reason: title), steps: [], seconds: 0),
    ]
  }

  static func controls(in text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter { $0 != "\n" && ReportText.isControl($0) }
  }

  @Test func oneLineEscapesEveryControlByScalars() {
    let line = ReportText.oneLine(Self.hostile)
    #expect(Self.controls(in: line).isEmpty && !line.contains("\n"))
    #expect(line.hasPrefix(#"x\r\necho pwned\n\u{1B}]0;t\u{7}\u{7F}\u{85}echo nel\u{9B}31m\u{2028}"#), "\(line)")
    // A backslash is doubled, so that "\n" written in a title is not a forged escape.
    #expect(line.hasSuffix(#"\tz\\n"#))
    #expect(ReportText.oneLine("plain – ünïcode ✓") == "plain – ünïcode ✓")
  }

  @Test func tapHasOneLinePerRecordAndNoLineOfTheTitlesChoice() throws {
    let tap = QAReport(environment: "local", results: Self.results(title: Self.hostile), seconds: 1, timestamp: Date())
      .tap()
    #expect(Self.controls(in: tap).isEmpty, "\(tap.debugDescription)")
    let lines = tap.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(!lines.contains { $0.hasPrefix("echo") || $0.hasPrefix("  echo") }, "\(lines)")
    // Plan, three test lines, one diagnostic block of fixed lines; nothing more.
    #expect(lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }.count == 3)
    #expect(lines.count == 2 + 3 + 12 + 1, "\(lines)")
    let path = try ReportTests.write(tap, suffix: ".tap")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let prove = try ReportTests.run("/usr/bin/prove", ["--exec", "cat", path])
    #expect(!prove.output.contains("Parse errors"), "\(prove.output)")
    #expect(prove.output.contains("Tests: 3 Failed: 1"), "\(prove.output)")
  }

  /// A `#` with a combining mark after it is one Swift Character but still a `#` to a TAP
  /// reader (found by the `reports` fuzz target).
  @Test func aHashBeforeACombiningMarkIsEscapedToo() {
    #expect(QAReport.tapText("a #\u{486} b") == "a \\#\u{486} b")
    #expect(QAReport.tapText("a \\# b") == "a \\\\\\# b")
  }

  @Test func junitKeepsEveryElementOnOneLineAndReadsBack() throws {
    let xml = QAReport(environment: "local", results: Self.results(title: Self.hostile), seconds: 1, timestamp: Date())
      .junit()
    #expect(Self.controls(in: xml).isEmpty, "\(xml.debugDescription)")
    #expect(!xml.split(separator: "\n").contains { $0.hasPrefix("echo") })
    let path = try ReportTests.write(xml, suffix: ".xml")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("junit.xsd").path
    let lint = try ReportTests.run("/usr/bin/xmllint", ["--noout", "--schema", schema, path])
    #expect(lint.status == 0, "\(lint.output)")
    let document = try XMLDocument(xmlString: xml)
    let names = try document.nodes(forXPath: "//testcase/@name").compactMap(\.stringValue)
    // What XML 1.0 can hold comes back as it was; the C0 controls it cannot are dropped.
    var expected = "b-1: "
    expected.unicodeScalars.append(
      contentsOf: Self.hostile.unicodeScalars.filter { $0.value >= 0x20 || ["\n", "\r", "\t"].contains($0) })
    #expect(names.first == expected, "\(names)")
  }

  @Test func jsonEscapesWhatTheEncoderLeavesAndReadsBack() throws {
    let text = QAReport(environment: "local", results: Self.results(title: Self.hostile), seconds: 1, timestamp: Date())
      .json()
    #expect(Self.controls(in: text).isEmpty, "\(text.debugDescription)")
    #expect(text.contains(#"\u0085"#) && text.contains(#"\u2028"#) && text.contains(#"\u007f"#))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let scenarios = try #require(object["scenarios"] as? [[String: Any]])
    #expect(scenarios.first?["title"] as? String == Self.hostile)
    #expect(ReportText.json(#"{"a":"plain"}"#) == #"{"a":"plain"}"#)
  }

  static let secret = "Acc0unt-Secret-55"

  /// The forms a filter or a server turns a secret into; none survives redaction.
  static let forms: [String] = {
    let secret = Self.secret
    let scalars = Array(secret.unicodeScalars)
    var forms: [String] = [secret, secret.uppercased(), secret.lowercased()]
    forms.append("prefix " + Data(secret.utf8).base64EncodedString() + " suffix")
    forms.append(Data(("x" + secret).utf8).base64EncodedString())
    forms.append(Data(("xy" + secret + "tail").utf8).base64EncodedString())
    let urlSafe = Data(("?" + secret + "??>").utf8).base64EncodedString()
    forms.append(urlSafe.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
    let characters: [String] = secret.map { String($0) }
    forms.append(characters.joined(separator: " "))
    forms.append(characters.map { "\"" + $0 + "\"" }.joined(separator: ","))
    forms.append(characters.joined(separator: "\n  "))
    let codePoints: [String] = scalars.map { String($0.value) }
    forms.append("[" + codePoints.joined(separator: ",") + "]")
    let escapes: [String] = scalars.map { String(format: "\\u%04x", $0.value) }
    forms.append(escapes.joined())
    let percents: [String] = secret.utf8.map { String(format: "%%%02X", $0) }
    forms.append(percents.joined())
    let references: [String] = scalars.map { "&#\($0.value);" }
    forms.append(references.joined())
    return forms
  }()

  @Test(arguments: forms)
  func aSecretIsMaskedInEveryForm(_ form: String) {
    let redactor = ReportRedactor(variables: ["account": Self.secret], secretNames: ["account"])
    let text = redactor.redact("before \(form) after")
    #expect(text.contains("[REDACTED]"), "\(form) -> \(text)")
    #expect(text.hasPrefix("before ") && text.hasSuffix(" after"), "\(text)")
    for core in ["Secret", "U2VjcmV0", "ecret", "83,101,99"] {
      #expect(!text.contains(core), "\(form) -> \(text)")
    }
  }

  /// A text shorter than the secret can still hold one of its forms: "YmNkZWZn" is base64 of
  /// "bcdefg", the aligned middle of "abcdefghi". The masker skips only texts shorter than
  /// every form (it skips the rest to keep a report of many fields quick).
  @Test func aFormShorterThanTheSecretIsMaskedToo() {
    let masker = SecretMasker(["abcdefghi"], mask: "[REDACTED]")
    #expect(masker.masking("YmNkZWZn") == "[REDACTED]")
    #expect(masker.masking("abcdefghi") == "[REDACTED]")
    #expect(masker.masking("YmNkZWZ") == "YmNkZWZ")
    // The same masker, used again, masks the same way.
    #expect(masker.masking("x YmNkZWZn y") == "x [REDACTED] y")
  }

  @Test func otherTextIsLeftAlone() {
    let redactor = ReportRedactor(variables: ["account": Self.secret], secretNames: ["account"])
    let text = "Keller Williams, 12 results in 0.3 s; a@example.test"
    #expect(redactor.redact(text) == text)
  }
}
