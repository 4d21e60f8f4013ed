import Foundation
import TestSupport
import Testing

/// What a hostile or broken backend cannot make deck do, through the real binary against a
/// python3 server the test starts (`HostileServer`), passing through to `deck sandbox serve`
/// where a flow needs the real backend.
@Suite("Hostile servers", .endToEndTimeLimit)
struct HostileServerTests {
  /// `deck --env local …` with nothing configured but what the test sets.
  func deck(_ variables: [String: String]) throws -> DeckCLI {
    var deck = try DeckCLI()
    deck.environment["DECK_ENV"] = "local"
    deck.environment.merge(variables) { $1 }
    return deck
  }

  // MARK: The harness

  @Test func aServerStopsWhenItsTestLetsGoOfIt() throws {
    var server: HostileServer? = try HostileServer(routes: [])
    let pid = try #require(server?.processIdentifier)
    #expect(kill(pid, 0) == 0, "running")
    server = nil
    // Killed and reaped by ChildProcess's deinit, not left behind for the rest of the run.
    #expect(kill(pid, 0) == -1 && errno == ESRCH)
  }

  @Test func aServerExitsWithTheProcessThatStartedIt() throws {
    // A shell starts a server script and exits once the script has started (its watch on its
    // parent runs before it writes its pid): the server is orphaned, as when a test run
    // crashes, and must not keep running.
    let marker = try TemporaryDirectory(prefix: "deck-orphan-")
    let script =
      PythonServer.exitWithParent + """
        import os, sys, time
        open(sys.argv[1] + ".tmp", "w").write(str(os.getpid()))
        os.rename(sys.argv[1] + ".tmp", sys.argv[1])
        time.sleep(60)
        """
    let shell = try ChildProcess(
      "sh",
      [
        "-c", #"python3 -c "$0" "$1" >/dev/null 2>&1 & while [ ! -s "$1" ]; do sleep 0.05; done"#, script,
        marker.path + "/pid",
      ],
      environment: ProcessInfo.processInfo.environment)
    #expect(shell.wait(timeout: 30) == 0)
    let orphan = try #require(
      (try? String(contentsOfFile: marker.path + "/pid", encoding: .utf8)).flatMap { Int32($0) },
      "the server never started")
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline, Self.isRunning(orphan) { usleep(100_000) }
    #expect(!Self.isRunning(orphan), "the orphaned server is still running")
  }

  /// Whether process `pid` exists and has not exited: an exited orphan that no one has reaped
  /// yet (a zombie, which `kill(pid, 0)` still finds) counts as exited.
  static func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let state = stat.split(separator: ")").last?.split(separator: " ").first
    else { return false }
    return state != "Z" && state != "X"
  }

  // MARK: Redirects (README: "a 3xx redirect, which deck never follows for API calls")

  @Test(arguments: [301, 302, 303, 307, 308])
  func aRedirectIsNeverFollowed(status: Int) throws {
    // The redirect names another server, which would answer 200: deck must not ask it.
    let target = try HostileServer(routes: [.init(nil, "/elsewhere", body: "[]")])
    let server = try HostileServer(routes: [
      .init(nil, "/api/brokerages/search", status: status, headers: ["Location": target.url + "/elsewhere"]),
      .init(nil, "/auth/v1/token", status: status, headers: ["Location": target.url + "/elsewhere"]),
    ])
    let deck = try deck(["DECK_FLYR_URL": server.url, "DECK_AUTH_URL": server.url])
    let search = try deck.run(["brokerage", "search", "keller", "--trace"])
    #expect(search.status == 1, "\(search.all)")
    #expect(
      search.stderr.contains(
        "The flyr service redirected to \(target.url)/elsewhere (HTTP \(status)); deck does not follow redirects"),
      "\(search.stderr)")
    #expect(search.stderr.contains("Check the environment's URL for flyr"))
    #expect(
      search.stderr.contains("< \(status) GET \(server.url)/api/brokerages/search"),
      "the trace credits the server that answered")
    #expect(server.count("/api/brokerages/search") == 1, "a redirect is not retried")

    // A POST (sign-in) is not turned into a GET to the other server either.
    let login = try deck.run(["auth", "login", "--email", "a@b.co", "--password-stdin"], stdin: "pw-123456\n")
    #expect(login.status == 1, "\(login.all)")
    #expect(login.stderr.contains("The auth service redirected to \(target.url)/elsewhere (HTTP \(status))"))
    #expect(target.requests.isEmpty, "nothing went where the redirects pointed: \(target.requests)")
  }

  @Test func aRedirectToPlainHTTPElsewhereIsNotFollowed() throws {
    // https → http on another host would bypass the plain-http rule; here the target does not
    // even resolve, so following it would end in "Cannot reach" (69), not in exit 1.
    let server = try HostileServer(routes: [
      .init(nil, "/api/brokerages/search", status: 301, headers: ["Location": "http://deck-redirect.invalid/x"])
    ])
    let result = try deck(["DECK_FLYR_URL": server.url]).run(["brokerage", "search", "keller"])
    #expect(result.status == 1, "\(result.all)")
    #expect(result.stderr.contains("redirected to http://deck-redirect.invalid/x (HTTP 301)"), "\(result.stderr)")
    #expect(!result.stderr.contains("Cannot reach"))
  }

  // MARK: Retry-After (README: a value that is not seconds or an HTTP date, or over 30 s, ends the retries)

  @Test(arguments: [
    "1e300", "inf", "nan", "-1", "soon", "99999999999", "Sun, 06 Nov 9223372036854775807 08:49:37 GMT",
    "Sun, 06 Nov 2026 99:49:37 GMT", "31", "3600", "Fri, 31 Dec 9999 23:59:59 GMT",
  ])
  func anUnusableRetryAfterEndsTheRetries(value: String) throws {
    let server = try HostileServer(routes: [
      .init(
        "GET", "/api/brokerages/search", status: 503, headers: ["Retry-After": value], body: #"{"msg":"busy"}"#)
    ])
    let started = Date()
    let result = try deck(["DECK_FLYR_URL": server.url]).run(["brokerage", "search", "keller"])
    #expect(result.status == 69, "\(result.all)")
    #expect(result.stderr.contains("The flyr service failed: busy (HTTP 503 from flyr)"), "\(result.stderr)")
    #expect(server.count("/api/brokerages/search") == 1, "one try only, for Retry-After: \(value)")
    #expect(Date().timeIntervalSince(started) < 10, "no wait either")
  }

  @Test func aUsableRetryAfterIsHonouredForEveryTry() throws {
    // The same server with a wait deck accepts: all 3 tries, so the count above is meaningful.
    let server = try HostileServer(routes: [
      .init("GET", "/api/brokerages/search", status: 503, headers: ["Retry-After": "0"], body: #"{"msg":"busy"}"#)
    ])
    let result = try deck(["DECK_FLYR_URL": server.url]).run(["brokerage", "search", "keller"])
    #expect(result.status == 69)
    #expect(server.count("/api/brokerages/search") == 3)
  }

  // MARK: Control characters in text from a server

  /// An OSC that retitles the terminal, a clear screen, blinking, and a C1 CSI.
  static let evil = "EVIL\u{1B}]0;PWNED-TITLE\u{07}\u{1B}[2JAFTER\u{1B}[5mBLINK\u{9B}31mC1"
  /// What is left of it on the terminal.
  static let shown = "EVIL]0;PWNED-TITLE[2JAFTER[5mBLINK31mC1"

  /// Output written to files (not a terminal): deck itself writes no escape sequence there.
  func expectNoControlCharacters(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let controls = text.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
    #expect(
      controls.isEmpty, "control characters: \(controls.map { String($0.value, radix: 16) })",
      sourceLocation: sourceLocation)
  }

  /// Terminal output: deck draws its own escape sequences, but none of the server's.
  func expectNoInjectedSequences(_ raw: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for injected in ["\u{1B}]0;PWNED", "PWNED-TITLE\u{07}", "\u{1B}[2JAFTER", "\u{1B}[5mBLINK", "\u{9B}"] {
      #expect(
        !raw.contains(injected), "\(injected.debugDescription) reached the terminal", sourceLocation: sourceLocation)
    }
  }

  /// A nudge service whose first question carries the escape sequences; the rest of the API
  /// is the served sandbox's.
  func hostileNudge(_ server: SandboxProcess) throws -> HostileServer {
    let listed = try DeckCLI(server: server).run(["mbti", "questions", "--json"])
    var rows = try #require(try json(listed.stdout) as? [[String: Any]])
    rows = rows.map { ["question": $0["question"] ?? "", "options": $0["options"] ?? []] }
    rows[0]["question"] = Self.evil + " " + (rows[0]["question"] as? String ?? "")
    let body = String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self)
    return try HostileServer(routes: [.init("GET", "/questions/", body: body)], upstream: server.url)
  }

  @Test func mbtiQuestionsShowServerTextWithoutControlCharacters() throws {
    let server = try SandboxProcess()
    let nudge = try hostileNudge(server)
    var deck = try DeckCLI(server: server)
    deck.environment["DECK_NUDGE_URL"] = nudge.url
    let listed = try deck.run(["mbti", "questions"])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.hasPrefix(" 1. \(Self.shown) "), "\(listed.stdout.debugDescription)")
    expectNoControlCharacters(listed.all)
    // JSON stays exact: it escapes C0 characters, and decodes to the server's text.
    let exact = try deck.run(["mbti", "questions", "--json"])
    let rows = try #require(try json(exact.stdout) as? [[String: Any]])
    #expect((rows.first?["question"] as? String)?.hasPrefix(Self.evil) == true)
    #expect(exact.stdout.contains(#"EVIL\u001b]0;PWNED-TITLE\u0007"#), "\(exact.stdout.prefix(120))")
  }

  @Test func traceBodiesLoseControlCharacters() throws {
    // Raw control bytes in a body (not even JSON), shown by --trace=body.
    let server = try HostileServer(routes: [.init("GET", "/questions/", body: #"["\#(Self.evil)"]"#)])
    let result = try deck(["DECK_NUDGE_URL": server.url]).run(["mbti", "questions", "--trace=body"])
    #expect(result.status == 1, "\(result.all)")
    #expect(result.stderr.contains("< 200 GET \(server.url)/questions/"))
    #expect(result.stderr.contains(#"["\#(Self.shown)"]"#), "the body is shown, less its control characters")
    expectNoControlCharacters(result.all)
  }

  @Test func thePlainQuizShowsServerTextWithoutControlCharacters() throws {
    let server = try SandboxProcess()
    let nudge = try hostileNudge(server)
    let deck = try DeckCLI(server: server)
    let quiz = try PseudoTerminal(deck: deck, ["mbti", "quiz", "--plain"], environment: ["DECK_NUDGE_URL": nudge.url])
    try quiz.expect("Question 1 of 24: \(Self.shown) ")
    expectNoInjectedSequences(quiz.raw)
    quiz.send("q\r")
    try quiz.expect("Quit the quiz?")
    quiz.send("d\r")
    #expect(try quiz.waitForExit() == 130)
  }

  @Test func theFullScreenQuizShowsServerTextWithoutControlCharacters() throws {
    let server = try SandboxProcess()
    let nudge = try hostileNudge(server)
    let deck = try DeckCLI(server: server)
    let quiz = try PseudoTerminal(
      deck: deck, ["mbti", "quiz"], environment: ["DECK_NUDGE_URL": nudge.url], columns: 120)
    try quiz.expect("0 of 24 answered")
    try quiz.expect("1. \(Self.shown) ")
    expectNoInjectedSequences(quiz.raw)
    quiz.send("\u{03}")
    try quiz.expect("k keeps your answers")
    quiz.send("d")
    #expect(try quiz.waitForExit() == 130)
    expectNoInjectedSequences(quiz.raw)
  }

  /// A flyr service that answers brokerage searches and checkouts with the escape sequences;
  /// the rest (access state, onboarding) is the served sandbox's. The signed-in user's token
  /// may go to it (it stands in for the environment's own flyr host).
  func hostileFlyr(_ server: SandboxProcess, _ deck: inout DeckCLI) throws -> HostileServer {
    let escaped = try Self.jsonEscaped(Self.evil)
    let evilBrokerage = #"[{"id":"00000000-0000-4000-8000-000000000001","name":"\#(escaped) Realty"}]"#
    let flyr = try HostileServer(
      routes: [
        .init("GET", "/api/brokerages/search", body: evilBrokerage),
        .init(
          "POST", "/api/billing/stripe/checkout",
          body: #"{"url":"https://pay.example/\#(escaped)"}"#),
      ], upstream: server.url)
    deck.environment["DECK_FLYR_URL"] = flyr.url
    deck.environment["DECK_SEND_TOKEN_TO_OVERRIDES"] = "1"
    return flyr
  }

  /// The text as the inside of a JSON string.
  static func jsonEscaped(_ text: String) throws -> String {
    String(String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst(2).dropLast(2))
  }

  @Test func theOnboardingBrokerageListShowsServerTextWithoutControlCharacters() throws {
    let server = try SandboxProcess()
    var deck = try DeckCLI(server: server)
    try deck.signUp("hostile@example.com")
    let flyr = try hostileFlyr(server, &deck)
    let wizard = try PseudoTerminal(
      deck: deck,
      [
        "workspace", "onboard", "--first-name", "Ada", "--last-name", "Lovelace", "--use-case", "solo",
        "--industry", "Real Estate", "--referral-code", "FRIEND",
      ])
    // A value left open makes it a wizard, which asks for the brokerage too.
    try wizard.expect("Workspace name: ")
    wizard.send("W\r")
    try wizard.expect("Brokerage (optional; Tab suggests, Enter to skip): ")
    wizard.send("zzz\r")
    try wizard.expect("1) \(Self.shown) Realty")
    try wizard.expect("2) Add \"zzz\" as new brokerage")
    try wizard.expect("Choose 1-2")
    expectNoInjectedSequences(wizard.raw)
    wizard.send("2\r")
    try wizard.expect("Submit? [Y/n] ")
    wizard.send("n\r")
    #expect(try wizard.waitForExit() == 1)
    #expect(flyr.count("/api/brokerages/search") >= 1)
  }

  @Test func theCheckoutURLIsShownWithoutControlCharacters() throws {
    let server = try SandboxProcess()
    var deck = try DeckCLI(server: server)
    try deck.signUp("checkout@example.com")
    #expect(try deck.onboard([]).status == 0)
    let flyr = try hostileFlyr(server, &deck)
    let human = try deck.run(["workspace", "subscribe", "--plan", "annual", "--currency", "USD"])
    #expect(human.status == 0, "\(human.stderr)")
    #expect(human.stdout == "https://pay.example/\(Self.shown)\n", "\(human.stdout.debugDescription)")
    expectNoControlCharacters(human.all)
    let exact = try deck.run(["workspace", "subscribe", "--plan", "annual", "--currency", "USD", "--json"])
    let url = try #require(try json(exact.stdout) as? [String: Any])["url"] as? String
    #expect(url == "https://pay.example/" + Self.evil, "JSON keeps the server's value exactly")
    #expect(flyr.count("/api/billing/stripe/checkout") == 2)
  }

  @Test func completionValuesLoseControlCharacters() throws {
    let server = try SandboxProcess()
    var deck = try DeckCLI(server: server)
    let flyr = try hostileFlyr(server, &deck)
    // A lookup gets 300 ms; on a loaded machine the first ones may run out of it (and offer nothing).
    var offered = ""
    for _ in 0..<10 where offered.isEmpty {
      let result = try deck.run(
        ["---completion", "brokerage", "search", "--", "positional@0", "3", "5", "deck", "brokerage", "search", "EV"],
        environment: ["SAP_SHELL": "bash"])
      #expect(result.status == 0)
      offered = result.stdout
    }
    #expect(offered.contains("\(Self.shown) Realty"), "\(offered.debugDescription)")
    expectNoControlCharacters(offered)
    #expect(flyr.count("/api/brokerages/search") >= 1)
  }
}
