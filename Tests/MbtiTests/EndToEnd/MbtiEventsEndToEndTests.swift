import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The quiz's events are never lost (issue 26, item 4): an event the nudge service did not
/// confirm stays in the environment's outbox, `deck mbti events` shows it, and the next command
/// that talks to nudge delivers it, once. And onboarding_take_test is sent once per quiz, not
/// again by `--resume` (item 5).
@Suite("MBTI events outbox", .endToEndTimeLimit)
struct MbtiEventsEndToEndTests {
  func events(_ deck: DeckCLI, _ arguments: [String] = []) throws -> [[String: Any]] {
    let listed = try deck.run(["sandbox", "inspect", "events", "--json"] + arguments)
    #expect(listed.status == 0, "\(listed.stderr)")
    return try #require(try json(listed.stdout) as? [[String: Any]])
  }

  func pending(_ deck: DeckCLI) throws -> [[String: Any]] {
    let listed = try deck.run(["mbti", "events", "--json"])
    #expect(listed.status == 0, "\(listed.stderr)")
    return try #require(try json(listed.stdout) as? [[String: Any]])
  }

  @Test(
    "mbti_completed is kept while /events/ hangs or fails, and delivered exactly once by the next command",
    arguments: [["--latency", "10000"], ["--status", "503"]])
  func undeliveredEventsAreKeptAndDeliveredOnce(fault: [String]) throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let rule = try deck.run(["sandbox", "fault", "add", "/events/", "--method", "POST"] + fault)
    #expect(rule.status == 0, "\(rule.stderr)")

    let started = Date()
    let answers = "[" + MbtiEndToEndTests.estj.map(String.init).joined(separator: ",") + "]"
    let submitted = try deck.run(["mbti", "submit", "--answers", "-", "--json"], stdin: answers)
    #expect(submitted.status == 0, "\(submitted.stderr)")
    #expect(Date().timeIntervalSince(started) < 8, "the events never hold the command up")
    #expect((try json(submitted.stdout) as? [String: Any])?["profile"] as? String == "ESTJ")
    #expect(try events(deck).isEmpty, "nothing got through")

    // Both events wait in the outbox, a private file; `deck mbti events` lists them.
    let waiting = try pending(deck)
    #expect(waiting.map { $0["type"] as? String } == ["mbti_submitted", "mbti_completed"])
    #expect((waiting.last?["details"] as? [String: String]) == ["type": "ESTJ"])
    #expect((waiting.first?["lastError"] as? String)?.isEmpty == false, "why the first attempt failed: \(waiting)")
    #expect((waiting.first?["attempts"] as? Int ?? 0) >= 1, "\(waiting)")
    let outbox = deck.home + "/state/deck/mbti/local.outbox.json"
    let mode = try #require(try FileManager.default.attributesOfItem(atPath: outbox)[.posixPermissions] as? Int)
    #expect(mode == 0o600)
    let human = try deck.run(["mbti", "events"])
    #expect(human.status == 0)
    #expect(human.stdout.contains("mbti_completed") && human.stdout.contains("type=ESTJ"), "\(human.stdout)")

    // The service is back: the next command that talks to nudge sends them.
    #expect(try deck.run(["sandbox", "fault", "clear"]).status == 0)
    let next = try deck.run(["mbti", "questions"])
    #expect(next.status == 0, "\(next.stderr)")
    #expect(try pending(deck).isEmpty, "delivered")
    #expect(try deck.run(["mbti", "events"]).stdout.contains("No MBTI events waiting to be sent in local."))

    // With latency, the first attempt of mbti_submitted, given up by deck after 2 s, reaches the
    // service 10 s after it was sent: wait for it, then each event is recorded once.
    if fault.contains("--latency") {
      let remaining = 12 - Date().timeIntervalSince(started)
      if remaining > 0 { Thread.sleep(forTimeInterval: remaining) }
    }
    let recorded = try events(deck)
    #expect(recorded.map { $0["event_type"] as? String } == ["mbti_submitted", "mbti_completed"], "\(recorded)")
    #expect((recorded.last?["details"] as? [String: String]) == ["type": "ESTJ"])
    // Another command finds nothing left to send.
    #expect(try deck.run(["mbti", "questions"]).status == 0)
    #expect(try events(deck).count == 2)
  }

  @Test("mbti events --send delivers what waits, and says so when it cannot (exit 69)")
  func sendNow() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    #expect(try deck.run(["sandbox", "fault", "add", "/events/", "--method", "POST", "--status", "503"]).status == 0)
    let answers = "[" + MbtiEndToEndTests.estj.map(String.init).joined(separator: ",") + "]"
    #expect(try deck.run(["mbti", "submit", "--answers", "-"], stdin: answers).status == 0)
    let refused = try deck.run(["mbti", "events", "--send"])
    #expect(refused.status == 69, "\(refused.stderr)")
    #expect(refused.stderr.contains("Sent 0 MBTI events to nudge."), "\(refused.stderr)")
    #expect(refused.stderr.contains("2 MBTI events are still waiting."), "\(refused.stderr)")
    // The answers carried X-Sandbox-Fault: the hint names the rule, not the environment's URL.
    #expect(refused.stderr.contains("The sandbox's fault rule 1 failed them"), "\(refused.stderr)")
    #expect(refused.stderr.contains("deck sandbox fault clear 1"), "\(refused.stderr)")
    #expect(!refused.stderr.contains("deck env show"), "\(refused.stderr)")
    for line in refused.all.split(separator: "\n") { #expect(!line.hasSuffix(".."), "\(line)") }
    #expect((try pending(deck)).allSatisfy { $0["lastFault"] as? String == "rule 1" })
    #expect(try deck.run(["sandbox", "fault", "clear"]).status == 0)
    let sent = try deck.run(["mbti", "events", "--send", "--json"])
    #expect(sent.status == 0, "\(sent.stderr)")
    #expect(sent.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    #expect(sent.stderr.contains("Sent 2 MBTI events to nudge."), "said in every format: \(sent.stderr)")
    #expect(try events(deck, ["--type", "mbti_completed"]).count == 1)
    let human = try deck.run(["mbti", "events", "--send"])
    #expect(human.stderr.contains("No MBTI events to send in local."), "\(human.stderr)")
  }

  @Test("onboarding_take_test is sent once per quiz, not again by --resume")
  func takeTestOncePerQuiz() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    for arguments in [["mbti", "quiz"], ["mbti", "quiz", "--resume"], ["mbti", "quiz", "--resume"]] {
      let quiz = try PseudoTerminal(deck: deck, arguments, columns: 120)
      try quiz.expect("Page 1 of 4")
      quiz.send("3")
      try quiz.expect("of 24 answered")
      quiz.send("q")
      try quiz.expect("k keeps your answers")
      quiz.send("k")
      #expect(try quiz.waitForExit() == 130)
    }
    let user =
      try #require(
        try json(try deck.run(["mbti", "user-id", "--json"]).stdout) as? [String: Any])["userId"] as? String
    #expect(try pending(deck).isEmpty)
    let sent = try events(deck, ["--user", try #require(user), "--type", "onboarding_take_test"])
    #expect(sent.count == 1, "\(sent)")
  }
}
