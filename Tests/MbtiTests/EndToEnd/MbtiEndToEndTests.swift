import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The MBTI quiz through the real binary against a served sandbox (mbti-quiz.md, acceptance
/// criteria and error states).
@Suite("MBTI quiz", .endToEndTimeLimit)
struct MbtiEndToEndTests {
  /// Agrees fully with the E, S, T and J questions and disagrees with the others, in the
  /// sandbox's question order: the contract's scoring gives ESTJ.
  static let estj = [5, 1, 1, 1, 5, 1, 5, 5, 5, 5, 1, 5, 1, 1, 5, 5, 1, 5, 5, 1, 5, 1, 1, 1]

  func questions(_ deck: DeckCLI) throws -> [String] {
    let listed = try deck.run(["mbti", "questions", "--json"])
    #expect(listed.status == 0, "\(listed.stderr)")
    let rows = try #require(try json(listed.stdout) as? [[String: Any]])
    return rows.compactMap { $0["question"] as? String }
  }

  func events(_ deck: DeckCLI, _ arguments: [String] = []) throws -> [[String: Any]] {
    let listed = try deck.run(["sandbox", "inspect", "events", "--json"] + arguments)
    #expect(listed.status == 0, "\(listed.stderr)")
    return try #require(try json(listed.stdout) as? [[String: Any]])
  }

  @Test("24 questions, numbered in the service's order")
  func questionsAreListed() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let texts = try questions(deck)
    #expect(texts.count == 24)
    let human = try deck.run(["mbti", "questions"])
    #expect(human.stdout.hasPrefix(" 1. \(texts[0])\n"))
    #expect(human.stdout.contains("24. \(texts[23])\n"))
  }

  @Test("a fixed answer set gives a known type, stored locally, with mbti_completed recorded")
  func fixedAnswersGiveAKnownType() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let submitted = try deck.run(
      ["mbti", "submit", "--answers", "-", "--json"],
      stdin: "[" + Self.estj.map(String.init).joined(separator: ",") + "]")
    #expect(submitted.status == 0, "\(submitted.stderr)")
    let result = try #require(try json(submitted.stdout) as? [String: Any])
    #expect(result["profile"] as? String == "ESTJ")
    #expect((result["scores"] as? [String: Int])?["E"] == 24)

    let stored = try deck.run(["mbti", "result", "--json"])
    #expect(stored.status == 0)
    let saved = try #require(try json(stored.stdout) as? [String: Any])
    #expect(saved["profile"] as? String == "ESTJ")
    #expect(saved["environment"] as? String == "local")
    #expect(saved["takenAt"] is String)
    let user = try #require(saved["userId"] as? String)
    #expect(try deck.run(["mbti", "user-id"]).stdout == user + "\n", "the same anonymous id is kept")

    let completed = try events(deck, ["--user", user, "--type", "mbti_completed"])
    #expect(completed.count == 1)
    #expect((completed.first?["details"] as? [String: String]) == ["type": "ESTJ"])
    #expect(
      try events(deck, ["--user", user]).map { $0["event_type"] as? String } == ["mbti_submitted", "mbti_completed"])
  }

  @Test("the payload is keyed by the exact question texts the service sent")
  func exactStringPayload() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let texts = try questions(deck)
    let object = Dictionary(uniqueKeysWithValues: texts.map { ($0, 3) })
    let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    let traced = try deck.run(["mbti", "submit", "--answers", "-", "--trace=body"], stdin: body)
    #expect(traced.status == 0, "\(traced.stderr)")
    #expect(traced.stdout.hasPrefix("INFP\n"))
    // The traced POST /answers/ (the request, up to its response) carries every text exactly,
    // as a key of `answers` (JSON escapes aside).
    // Events are sent alongside, so their trace may come between the request and its answer:
    // the body is the lines after the request's headers, up to the next traced request or answer.
    let lines = traced.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    let post = try #require(lines.firstIndex { $0 == "> POST \(server.url)/answers/" })
    let request = lines[(post + 1)...].prefix { !$0.hasPrefix("< ") && !$0.contains(" http://") }
      .filter { !$0.hasPrefix("> ") }.joined(separator: "\n")
    let sent = try #require(try json(request) as? [String: Any], "\(traced.stderr)")
    #expect((sent["answers"] as? [String: Int]).map { Set($0.keys) } == Set(texts), "\(request)")

    // A text that differs in case only is not a question: refused before sending, by number.
    var changed = object
    changed[texts[0]] = nil
    changed[texts[0].lowercased()] = 3
    let refused = try deck.run(
      ["mbti", "submit", "--answers", "-"],
      stdin: String(decoding: try JSONSerialization.data(withJSONObject: changed), as: UTF8.self))
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("No such question"), "\(refused.stderr)")
  }

  @Test("bad answers are named by question number and nothing is sent")
  func badAnswersAreUsageErrors() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    var values = Array(repeating: "3", count: 24)
    values[4] = "6"
    values[9] = "0"
    let range = try deck.run(["mbti", "submit", "--answers", "-"], stdin: "[\(values.joined(separator: ","))]")
    #expect(range.status == 64)
    #expect(range.stderr.contains("questions 5, 10 are outside 1-5"), "\(range.stderr)")
    let short = try deck.run(["mbti", "submit", "--answers", "-"], stdin: "[1,2,3]")
    #expect(short.status == 64)
    #expect(short.stderr.contains("has 3 values; the quiz has 24"))
    #expect(try deck.run(["mbti", "submit", "--answers", "/nonexistent.json"]).status == 64)
    #expect(try events(deck, ["--type", "mbti_submitted"]).isEmpty, "nothing was sent")
    #expect(try deck.run(["mbti", "result"]).status == 1, "no result yet")
  }

  @Test("questions that cannot be fetched: exit 69, \"Couldn't load questions\", with the fix")
  func questionsUnavailable() throws {
    var deck = try DeckCLI()
    deck.environment["DECK_ENV"] = "local"
    deck.environment["DECK_NUDGE_URL"] = "http://127.0.0.1:9"
    let result = try deck.run(["mbti", "questions"])
    #expect(result.status == 69)
    #expect(result.stderr.contains("error: Couldn’t load questions: Cannot reach 127.0.0.1:9"), "\(result.stderr)")
    // The fix names the port of the URL, as doctor's does (`deck sandbox serve` alone would
    // listen on 8787).
    #expect(result.stderr.contains("\nIs the sandbox running? Start it with: deck sandbox serve --port 9\n"), "the fix")
    // --plain says the same and ends.
    let plain = try startQuiz(deck, ["--plain"])
    try plain.expect("Couldn’t load questions: Cannot reach 127.0.0.1:9")
    try plain.expect("Start it with: deck sandbox serve")
    #expect(try plain.waitForExit() == 69)
    // The full-screen quiz shows a retry card (r retries, q cancels with the same error).
    let quiz = try startQuiz(deck)
    try quiz.expect("Couldn’t load questions")
    try quiz.expect("Cannot reach 127.0.0.1:9")
    try quiz.expect("[r] Retry   [q] Cancel")
    quiz.send("r")
    try quiz.expect("Loading questions…")
    try quiz.expect("[r] Retry")
    quiz.send("q")
    #expect(try quiz.waitForExit() == 69)
    try quiz.expect("Couldn’t load questions: Cannot reach 127.0.0.1:9")
    try quiz.expect("Start it with: deck sandbox serve")
  }

  @Test("questions that fail to load: the full-screen quiz's retry card loads them once the service is back")
  func retryCard() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let rule = try deck.run(["sandbox", "fault", "add", "/questions/", "--method", "GET", "--status", "503"])
    #expect(rule.status == 0, "\(rule.stderr)")
    let quiz = try startQuiz(deck)
    try quiz.expect("Couldn’t load questions", timeout: 30)
    try quiz.expect("HTTP 503")
    try quiz.expect("[r] Retry")
    #expect(!quiz.screen.contains("Page 1 of 4"))
    #expect(try deck.run(["sandbox", "fault", "clear"]).status == 0)
    quiz.send("r")
    try quiz.expect("Page 1 of 4")
    try quiz.expect("0 of 24 answered")
    quiz.send("4")
    try quiz.expect("1 of 24 answered")
    quiz.send("qk")
    #expect(try quiz.waitForExit() == 130)
    try quiz.expect("Quiz left; your answer is saved.")
  }

  @Test("the built-in simulator environment: nudge at http://127.0.0.1:8000 (mbti-quiz.md), http for loopback only")
  func simulatorEnvironment() throws {
    var deck = try DeckCLI()
    let shown = try deck.run(["env", "show", "simulator", "--json"])
    #expect(shown.status == 0, "\(shown.stderr)")
    let view = try #require(try json(shown.stdout) as? [String: Any])
    #expect(view["builtin"] as? Bool == true)
    #expect(view["sandbox"] as? Bool == false, "a real nudge server, not a deck sandbox")
    #expect(view["allowInsecureHttp"] as? Bool == false)
    #expect((view["services"] as? [String: String]) == ["nudge": "http://127.0.0.1:8000"])
    // Questions come from there (a port nothing listens on stands in for it here).
    deck.environment["DECK_ENV"] = "simulator"
    deck.environment["DECK_NUDGE_URL"] = "http://127.0.0.1:9"
    let unreachable = try deck.run(["mbti", "questions"])
    #expect(unreachable.status == 69)
    #expect(unreachable.stderr.contains("Cannot reach 127.0.0.1:9"), "\(unreachable.stderr)")
    // Plain http anywhere but loopback is refused.
    deck.environment["DECK_NUDGE_URL"] = "http://192.168.1.20:8000"
    let lan = try deck.run(["mbti", "questions"])
    #expect(lan.status == 1)
    #expect(lan.stderr.contains("Refusing plain http for nudge in environment \"simulator\""), "\(lan.stderr)")
  }
}
