import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The MBTI quiz through the real binary against a served sandbox (mbti-quiz.md, acceptance
/// criteria and error states).
@Suite("MBTI quiz", .timeLimit(.minutes(3)))
struct MbtiTests {
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

  @Test("24 questions, numbered in the service's order, paged 6 per page")
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
    // The request body carries every text exactly (JSON escapes aside).
    let escaped = texts[2].replacingOccurrences(of: "/", with: "\\/")
    #expect(traced.stderr.contains(texts[2]) || traced.stderr.contains(escaped))

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
    #expect(result.stderr.contains("Couldn’t load questions"), "\(result.stderr)")
    #expect(result.stderr.components(separatedBy: "\n").count > 2, "a hint follows the message")
  }

  // MARK: The full-screen quiz

  func startQuiz(_ deck: DeckCLI, _ extra: [String] = [], environment extraEnvironment: [String: String] = [:])
    throws -> PseudoTerminal
  {
    var environment = deck.environment.merging(extraEnvironment) { $1 }
    environment["TERM"] = "xterm"
    return try PseudoTerminal(arguments: ["mbti", "quiz"] + extra, environment: environment, columns: 120)
  }

  @Test("the full-screen quiz: a gap refused, back and forth keep answers, Ctrl-C keeps them, --resume, submit")
  func fullScreenQuiz() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    var quiz = try startQuiz(deck)
    try quiz.expect("Page 1 of 4")
    try quiz.expect("0 of 24 answered")
    quiz.send("42")
    try quiz.expect("2 of 24 answered")
    quiz.send("n")
    try quiz.expect("Question 3 is not answered yet.")
    quiz.send("3333")
    try quiz.expect("6 of 24 answered")
    quiz.send("n")
    try quiz.expect("Page 2 of 4")
    quiz.send("111")
    try quiz.expect("9 of 24 answered")
    quiz.send("b")
    try quiz.expect("Page 1 of 4")
    quiz.send("n")
    try quiz.expect("Page 2 of 4")
    // Ctrl-C asks; k keeps the answers for --resume.
    quiz.send("\u{03}")
    try quiz.expect("k keeps your answers")
    quiz.send("k")
    #expect(try quiz.waitForExit() == 130)
    try quiz.expect("deck mbti quiz --resume")

    quiz = try startQuiz(deck, ["--resume"], environment: ["DECK_REDUCE_MOTION": "1"])
    try quiz.expect("Page 2 of 4")
    try quiz.expect("9 of 24 answered")
    quiz.send("111n")
    try quiz.expect("Page 3 of 4")
    quiz.send("555555n")
    try quiz.expect("Page 4 of 4")
    quiz.send("22222")
    quiz.send("n")
    try quiz.expect("Question 24 is not answered yet.")
    quiz.send("2n")
    try quiz.expect("Your type")
    try quiz.expect("Press any key.")
    quiz.send("x")
    #expect(try quiz.waitForExit() == 0)
    let result = try #require(try json(try deck.run(["mbti", "result", "--json"]).stdout) as? [String: Any])
    let profile = try #require(result["profile"] as? String)
    #expect(profile.count == 4)
    let user = try #require(result["userId"] as? String)
    let types = try events(deck, ["--user", user]).compactMap { $0["event_type"] as? String }
    #expect(types.filter { $0 == "onboarding_take_test" }.count == 2)
    #expect(types.filter { $0 == "mbti_page_advance" }.count == 4)
    #expect(types.suffix(2) == ["mbti_submitted", "mbti_completed"])
  }

  @Test("a failed submission keeps the answers, and a retry succeeds")
  func submitFailureKeepsAnswers() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let quiz = try startQuiz(deck, ["--timeout", "1"], environment: ["DECK_REDUCE_MOTION": "1"])
    try quiz.expect("Page 1 of 4")
    quiz.send("333333n333333n333333n33333")
    try quiz.expect("23 of 24 answered")
    // The nudge service is now slower than the quiz's request timeout: the submission fails
    // (a POST is never retried).
    #expect(try deck.run(["sandbox", "delay", "3000"]).status == 0)
    quiz.send("3")
    try quiz.expect("24 of 24 answered")
    quiz.send("n")
    try quiz.expect("Couldn’t submit", timeout: 20)
    try quiz.expect("Your answers are kept")
    #expect(try deck.run(["sandbox", "delay", "0"]).status == 0)
    quiz.send("n")
    try quiz.expect("Your type", timeout: 20)
    try quiz.expect("INFP")
    quiz.send("x")
    #expect(try quiz.waitForExit() == 0)
  }

  @Test("the quiz runs as a REPL line, and the REPL gets its terminal back")
  func quizInTheREPL() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    var environment = deck.environment
    environment["TERM"] = "xterm"
    environment["INPUTRC"] = "/dev/null"
    let repl = try PseudoTerminal(arguments: ["repl"], environment: environment, columns: 120)
    try repl.expect("deck (local)> ")
    repl.send("mbti quiz\r")
    try repl.expect("Page 1 of 4")
    repl.send("4")
    try repl.expect("1 of 24 answered")
    repl.send("\u{03}")
    try repl.expect("k keeps your answers")
    repl.send("k")
    try repl.expect("your 1 answers are saved")
    try repl.expect("deck (local)> ")
    // Tab completion works again: readline has the terminal back.
    repl.send("mbti res\t")
    try repl.expect("mbti result ")
    repl.send("\r")
    try repl.expect("No MBTI result in local yet.")
    try repl.expect("deck (local)> ")
    repl.send("\u{04}")
    #expect(try repl.waitForExit() == 0)
  }

  @Test("--plain asks one question per line with the same pages and checks")
  func plainQuiz() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let texts = try questions(deck)
    let quiz = try startQuiz(deck, ["--plain"])
    try quiz.expect("Page 1 of 4, 0 of 24 answered")
    try quiz.expect("Question 1 of 24: \(texts[0])")
    quiz.send("4\r")
    try quiz.expect("Question 2 of 24")
    quiz.send("\r")  // skip question 2
    try quiz.expect("Question 3 of 24")
    quiz.send("3\r3\r3\r3\r")
    try quiz.expect("Question 2 is not answered yet.")
    try quiz.expect("Question 2 of 24")
    quiz.send("5\r")
    try quiz.expect("Page 2 of 4, 6 of 24 answered")
    quiz.send("b\r")
    try quiz.expect("Page 1 of 4, 6 of 24 answered")
    quiz.send("n\r")
    try quiz.expect("Page 2 of 4")
    for number in 7...24 {
      try quiz.expect("Question \(number) of 24")
      quiz.send("3\r")
    }
    try quiz.expect("Submitting")
    #expect(try quiz.waitForExit() == 0)
    try quiz.expect("INFP")
  }

  @Test("an events endpoint that is down does not fail the quiz")
  func eventsDownDoNotFail() throws {
    let server = try SandboxProcess()
    var deck = try DeckCLI(server: server)
    // Questions and answers come from the served sandbox through a proxy that drops /events/.
    let proxy = try EventsBlackhole(upstream: server.url)
    deck.environment["DECK_NUDGE_URL"] = proxy.url
    let started = Date()
    let submitted = try deck.run(
      ["mbti", "submit", "--answers", "-"], stdin: "[" + Self.estj.map(String.init).joined(separator: ",") + "]")
    #expect(submitted.status == 0, "\(submitted.stderr)")
    #expect(submitted.stdout.hasPrefix("ESTJ"))
    #expect(Date().timeIntervalSince(started) < 8, "events are bounded, not waited for")
    #expect(proxy.eventRequests > 0, "the events were attempted")
  }
}

/// A tiny HTTP proxy on loopback that forwards everything to `upstream` except `POST /events/`,
/// which it holds without answering (a hung analytics backend).
final class EventsBlackhole: @unchecked Sendable {
  let url: String
  private let listener: Int32
  private let lock = NSLock()
  private var events = 0
  var eventRequests: Int { lock.withLock { events } }

  init(upstream: String) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.listener = listener
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    listen(listener, 16)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
    let upstreamURL = URL(string: upstream)!
    let thread = Thread { [self] in
      while true {
        let client = accept(listener, nil, nil)
        if client < 0 { return }
        Thread { self.serve(client, upstream: upstreamURL) }.start()
      }
    }
    thread.start()
  }

  deinit { close(listener) }

  private func serve(_ client: Int32, upstream: URL) {
    defer { close(client) }
    var request = Data()
    var chunk = [UInt8](repeating: 0, count: 65536)
    // Read the head and (by Content-Length) the body.
    while true {
      let count = read(client, &chunk, chunk.count)
      if count <= 0 { return }
      request.append(contentsOf: chunk[0..<count])
      guard let headEnd = request.range(of: Data("\r\n\r\n".utf8)) else { continue }
      let head = String(decoding: request[..<headEnd.lowerBound], as: UTF8.self)
      let length =
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
      if request.count - headEnd.upperBound >= length { break }
    }
    let head = String(decoding: request.prefix(200), as: UTF8.self)
    if head.hasPrefix("POST /events/") {
      lock.withLock { events += 1 }
      Thread.sleep(forTimeInterval: 30)  // never answers in time
      return
    }
    // Forward to the sandbox, one request per connection.
    let upstreamSocket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(upstreamSocket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(upstream.port ?? 80).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(upstreamSocket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return }
    // Ask the upstream to close after answering, so the answer ends at EOF.
    let text = String(decoding: request, as: UTF8.self)
    let rewritten = text.replacingOccurrences(
      of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n", options: [], range: text.range(of: "\r\n\r\n"))
    _ = Array(rewritten.utf8).withUnsafeBytes { write(upstreamSocket, $0.baseAddress, $0.count) }
    var response = Data()
    while true {
      let count = read(upstreamSocket, &chunk, chunk.count)
      if count <= 0 { break }
      response.append(contentsOf: chunk[0..<count])
    }
    // The answer says the connection closes, so that deck never reuses it for another request.
    if let lineEnd = response.range(of: Data("\r\n".utf8)) {
      response.insert(contentsOf: Data("Connection: close\r\n".utf8), at: lineEnd.upperBound)
    }
    _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
  }
}
