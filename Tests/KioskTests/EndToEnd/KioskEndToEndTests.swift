import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The review kiosk end to end: the real `deck` against `deck sandbox serve` on an ephemeral
/// port (kiosk-review-flow.md's paths, its error paths, scripted runs and the terminal kiosk).
@Suite("Kiosk", .endToEndTimeLimit)
struct KioskEndToEndTests: KioskSteps {
  func session(_ deck: DeckCLI, _ id: String) throws -> [String: Any] {
    try object(deck, ["sandbox", "inspect", "session", id, "--json"])
  }

  func store(_ deck: DeckCLI, _ id: String = "store_demo") throws -> [String: Any] {
    try object(deck, ["sandbox", "inspect", "store", id, "--json"])
  }

  func screen(_ deck: DeckCLI) throws -> String? {
    try object(deck, ["kiosk", "status", "--json"])["screen"] as? String
  }

  func curl(_ arguments: [String], in deck: DeckCLI) throws -> DeckCLI.Result {
    try DeckCLI.execute(
      "curl", ["-s", "-w", "\n%{http_code}"] + arguments, stdin: nil, environment: deck.environment,
      in: deck.home)
  }

  // MARK: The spec's paths

  @Test func happyPath() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let paired = try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    #expect(paired["screen"] as? String == "idle")
    #expect(paired["storePublicId"] as? String == "store_demo")

    let id = try purchase(deck, ["--total", "45.99", "--item", "Handmade Scarf", "--item", "Soy Candle"])
    let next = try object(deck, ["kiosk", "next", "--json"])
    #expect(next["screen"] as? String == "rating")
    #expect((next["session"] as? [String: Any])?["publicId"] as? String == id)
    #expect((next["order"] as? [String: Any])?["totalAmount"] as? Int == 4599)

    let human = try deck.run(["kiosk", "status"])
    #expect(human.stdout.contains("$45.99") && human.stdout.contains("Handmade Scarf"))

    let rated = try object(deck, ["kiosk", "rate", "4", "--json"])
    #expect(rated["screen"] as? String == "consent")
    let review = try #require(rated["generatedReviewText"] as? String)
    #expect(review.contains("Handmade Scarf") && review.contains("Soy Candle"), "the review names what was bought")

    let approved = try object(deck, ["kiosk", "approve", "--json"])
    #expect(approved["screen"] as? String == "handoff")
    #expect(approved["handoffURL"] as? String == "\(server.url)/r/\(id)")
    #expect(approved["handoffRemainingSeconds"] as? Int == 30)
    #expect(try session(deck, id)["status"] as? String == "APPROVED")
    #expect(try store(deck)["lastApprovedSessionId"] as? String == id)

    // The landing page the QR code opens: the review, Copy and Post.
    let page = try curl(["\(server.url)/r/\(id)"], in: deck)
    #expect(page.stdout.hasSuffix("\n200"))
    #expect(page.stdout.contains("Handmade Scarf") && page.stdout.contains(">Copy<") && page.stdout.contains(">Post<"))

    let done = try object(deck, ["kiosk", "done", "--json"])
    #expect(done["screen"] as? String == "idle")
    let final = try session(deck, id)
    #expect(final["status"] as? String == "POSTED_INTENT")
    #expect(final["starRating"] as? Int == 4)
    #expect(final["generatedReviewText"] as? String == review)
    #expect(try store(deck)["lastApprovedSessionId"] as? String == id)

    // The pairing and the state persisted per environment, in one file.
    let state = deck.home + "/state/deck/kiosk/local.json"
    #expect(FileManager.default.fileExists(atPath: state))
  }

  @Test func approveShowsTheHandoffURLAsAQRCodeThatDecodesBack() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    let id = try purchase(deck)
    try object(deck, ["kiosk", "next", "--json"])
    try object(deck, ["kiosk", "rate", "5", "--json"])
    let png = deck.home + "/handoff.png"
    let approved = try deck.run(["kiosk", "approve", "--qr-png", png])
    #expect(approved.status == 0, "\(approved.stderr)")
    let url = "\(server.url)/r/\(id)"
    #expect(approved.stdout.contains(url))
    let blocks = approved.stdout.filter { "█▀▄".contains($0) }.count
    #expect(blocks > 200, "the QR code is drawn with half blocks")

    let decoded = try DeckCLI.execute(
      "zbarimg", ["--quiet", "--raw", png], stdin: nil, environment: deck.environment, in: deck.home)
    #expect(decoded.status == 0, "\(decoded.stderr)")
    #expect(decoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == url)
  }

  @Test func declinePath() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    let id = try purchase(deck, ["--item", "Wool Beanie"])
    try object(deck, ["kiosk", "next", "--json"])
    let rated = try object(deck, ["kiosk", "rate", "2", "--json"])
    let twoStars = try #require(rated["generatedReviewText"] as? String)
    #expect(twoStars.contains("Wool Beanie"))
    let declined = try object(deck, ["kiosk", "decline", "--json"])
    #expect(declined["screen"] as? String == "idle")
    #expect(declined["session"] is NSNull, "reset clears the session")
    #expect(declined["storePublicId"] as? String == "store_demo", "and keeps the store")
    #expect(try session(deck, id)["status"] as? String == "DECLINED")
    #expect(try store(deck)["lastApprovedSessionId"] is NSNull)

    // A 5-star review of the same purchase reads differently.
    let other = try purchase(deck, ["--item", "Wool Beanie"])
    try object(deck, ["kiosk", "next", "--json"])
    let fiveStars = try object(deck, ["kiosk", "rate", "5", "--json"])["generatedReviewText"] as? String
    #expect(fiveStars?.contains("Wool Beanie") == true)
    #expect(fiveStars != twoStars)
    #expect(try session(deck, other)["status"] as? String == "RATED")
  }

  @Test func cancelPath() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    let id = try purchase(deck)
    try object(deck, ["kiosk", "next", "--json"])
    let cancelled = try object(deck, ["kiosk", "cancel", "--json"])
    #expect(cancelled["screen"] as? String == "idle")
    #expect(cancelled["session"] is NSNull)
    #expect(try session(deck, id)["status"] as? String == "PENDING", "cancel sends nothing")
    // The cancelled session does not come back; the next purchase does.
    #expect(try object(deck, ["kiosk", "next", "--json"])["screen"] as? String == "idle")
    let newer = try purchase(deck)
    let next = try object(deck, ["kiosk", "next", "--json"])
    #expect((next["session"] as? [String: Any])?["publicId"] as? String == newer)
  }

  @Test func rePairPath() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    let again = try deck.run(["kiosk", "pair", "store_abc123"])
    #expect(again.status == 64, "a paired kiosk is unpaired first")
    #expect(again.stderr.contains("unpair"))

    let unpaired = try object(deck, ["kiosk", "unpair", "--json"])
    #expect(unpaired["screen"] as? String == "pairing")
    #expect(unpaired["storePublicId"] is NSNull)
    let next = try deck.run(["kiosk", "next"])
    #expect(next.status == 64)
    #expect(next.stderr.contains("not paired"))

    let repaired = try object(deck, ["kiosk", "pair", "store_abc123", "--json"])
    #expect(repaired["screen"] as? String == "idle")
    #expect(repaired["storePublicId"] as? String == "store_abc123")
    _ = try purchase(deck, store: "store_demo")
    #expect(try object(deck, ["kiosk", "next", "--json"])["screen"] as? String == "idle", "another store's purchase")
    let id = try purchase(deck, store: "store_abc123")
    let found = try object(deck, ["kiosk", "next", "--json"])
    #expect((found["session"] as? [String: Any])?["publicId"] as? String == id)
  }

  // MARK: Errors

  @Test func ratingOutOfRangeSendsNothing() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    let id = try purchase(deck)
    try object(deck, ["kiosk", "next", "--json"])
    for bad in ["0", "6", "x", "-1"] {
      let result = try deck.run(["kiosk", "rate", "--", bad])
      #expect(result.status == 64, "rate \(bad): \(result.stderr)")
    }
    #expect(try session(deck, id)["status"] as? String == "PENDING")
    #expect(try screen(deck) == "rating")

    // The backend's own checks, for other clients.
    let base = "\(server.url)/api/v1/kiosk/store_demo/sessions/\(id)"
    let nine = try curl(
      ["-X", "POST", "-H", "content-type: application/json", "-d", #"{"starRating":9}"#, base + "/rating"], in: deck)
    #expect(nine.stdout.hasSuffix("\n400") && nine.stdout.contains("between 1 and 5"))
    let text = try curl(
      ["-X", "POST", "-H", "content-type: application/json", "-d", #"{"starRating":"four"}"#, base + "/rating"],
      in: deck)
    #expect(text.stdout.hasSuffix("\n400"))
  }

  @Test func unknownStoreIsAClearErrorAndNothingIsSaved() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let result = try deck.run(["kiosk", "pair", "store_nope"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("store_nope") && result.stderr.contains("not found"))
    #expect(!deck.createdFiles().contains { $0.contains("kiosk") }, "nothing saved")
    #expect(try screen(deck) == "pairing")

    let purchase = try deck.run(["sandbox", "trigger", "purchase", "--store", "store_nope"])
    #expect(purchase.status == 1)
    let inspect = try deck.run(["sandbox", "inspect", "session", "sess_nope"])
    #expect(inspect.status == 1)
    #expect(inspect.stderr.contains("not found"))
    let next = try curl(["\(server.url)/api/v1/kiosk/store_nope/next"], in: deck)
    #expect(next.stdout.hasSuffix("\n404"))
    let empty = try curl(["\(server.url)/api/v1/kiosk/store_demo/next"], in: deck)
    #expect(empty.stdout == "{\"order\":null,\"session\":null}\n200")
  }

  @Test func aCallOutOfOrderIs409AndKeepsTheScreen() throws {
    let server = try SandboxProcess()
    // Two kiosks paired with the same store see the same purchase; the second to rate is late.
    let first = try DeckCLI(server: server)
    let second = try DeckCLI(server: server)
    try object(first, ["kiosk", "pair", "store_demo", "--json"])
    try object(second, ["kiosk", "pair", "store_demo", "--json"])
    let id = try purchase(first)
    try object(first, ["kiosk", "next", "--json"])
    try object(second, ["kiosk", "next", "--json"])
    try object(first, ["kiosk", "rate", "5", "--json"])
    let late = try second.run(["kiosk", "rate", "3"])
    #expect(late.status == 65, "\(late.stderr)")
    #expect(late.stderr.contains("RATED") && late.stderr.contains(id))
    let status = try object(second, ["kiosk", "status", "--json"])
    #expect(status["screen"] as? String == "rating", "a failed rating keeps the screen")
    #expect((status["errorMessage"] as? String)?.contains("RATED") == true)
    #expect(try object(second, ["kiosk", "cancel", "--json"])["screen"] as? String == "idle")

    // A command that does not fit the screen says where the kiosk is and sends nothing.
    let early = try second.run(["kiosk", "approve"])
    #expect(early.status == 64)
    #expect(early.stderr.contains("idle screen") && early.stderr.contains("accepts: next, unpair"))

    // The backend's 409 for other clients: done before approve.
    let done = try curl(["-X", "POST", "\(server.url)/api/v1/review/\(id)/done"], in: first)
    #expect(done.stdout.hasSuffix("\n409"))
    #expect(done.stdout.contains("only an APPROVED session"))
  }

  // MARK: Scripted

  @Test func scriptedRunProcessesTwentySessions() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    var ids = Set<String>()
    for _ in 0..<20 { ids.insert(try purchase(deck)) }
    let run = try deck.run([
      "kiosk", "run", "--sessions", "20", "--rating", "5", "--approve", "--json",
      "--poll-interval", "0.05", "--handoff-timeout", "0.05", "--thank-you", "0.01",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 20)
    var seen = Set<String>()
    for line in lines {
      let report = try #require(try json(String(line)) as? [String: Any])
      #expect(report["status"] as? String == "POSTED_INTENT")
      #expect(report["error"] is NSNull)
      #expect((report["timings"] as? [String: Any])?["totalMs"] is Int)
      if let id = report["publicId"] as? String { seen.insert(id) }
    }
    #expect(seen == ids)
    let counts = try store(deck)["sessions"] as? [String: Int]
    #expect(counts?["POSTED_INTENT"] == 20)
    #expect(counts?["PENDING"] == 0)
  }

  @Test func scriptedRunNeedsItsAnswersAndAStore() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    #expect(try deck.run(["kiosk", "run"]).status == 64, "no terminal and no script")
    #expect(try deck.run(["kiosk", "run", "--sessions", "1", "--rating", "4"]).status == 64)
    #expect(try deck.run(["kiosk", "run", "--sessions", "1", "--rating", "9", "--approve"]).status == 64)
    let unpaired = try deck.run(["kiosk", "run", "--sessions", "1", "--rating", "4", "--decline"])
    #expect(unpaired.status == 64)
    #expect(unpaired.stderr.contains("not paired"))
    let unknown = try deck.run([
      "kiosk", "run", "--store", "store_nope", "--sessions", "1", "--rating", "4", "--decline",
    ])
    #expect(unknown.status == 1)

    _ = try purchase(deck)
    let declined = try deck.run([
      "kiosk", "run", "--store", "store_demo", "--sessions", "1", "--rating", "1", "--decline",
      "--poll-interval", "0.05", "--thank-you", "0",
    ])
    #expect(declined.status == 0, "\(declined.stderr)")
    #expect(declined.stdout.contains("DECLINED"))
  }

  // MARK: The terminal kiosk

  func startKiosk(_ deck: DeckCLI, _ extra: [String] = []) throws -> PseudoTerminal {
    var environment = deck.environment
    environment["TERM"] = "xterm"
    let terminal = try PseudoTerminal(
      arguments: ["kiosk", "run", "--poll-interval", "0.2", "--thank-you", "0.5"] + extra, environment: environment)
    try terminal.expect("Tap to Start")
    return terminal
  }

  /// The pty's settings: raw mode turns canonical input and echo off.
  func isCooked(_ terminal: PseudoTerminal) -> Bool {
    var settings = termios()
    guard tcgetattr(terminal.master, &settings) == 0 else { return false }
    return settings.c_lflag & tcflag_t(ICANON) != 0 && settings.c_lflag & tcflag_t(ECHO) != 0
  }

  @Test func terminalKioskRunsAWholeSession() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    let png = deck.home + "/kiosk-qr.png"
    let kiosk = try startKiosk(deck, ["--qr-png", png])
    #expect(!isCooked(kiosk), "raw mode while the kiosk runs")

    let id = try purchase(deck, ["--total", "12.50", "--item", "Soy Candle"])
    try kiosk.expect("Rate Your Experience")
    try kiosk.expect("$12.50")
    kiosk.send("\u{1B}[C\u{1B}[C\u{1B}[D")  // →, →, ←: one star
    kiosk.send("4")
    kiosk.send("\r")
    try kiosk.expect("Your Review")
    try kiosk.expect("Soy Candle")
    kiosk.send("y")
    try kiosk.expect("Scan to Post Your Review")
    let handoff = try kiosk.expect("Time remaining:")
    let blocks = handoff.filter { "█▀▄".contains($0) }.count
    #expect(blocks > 200, "a QR code was drawn")
    #expect(handoff.contains("URL: \(server.url)/r/\(id)"))
    kiosk.send("\r")
    try kiosk.expect("Thank You!")
    try kiosk.expect("Tap to Start")

    let final = try session(deck, id)
    #expect(final["status"] as? String == "POSTED_INTENT")
    #expect(final["starRating"] as? Int == 4)
    #expect(try store(deck)["lastApprovedSessionId"] as? String == id)
    let decoded = try DeckCLI.execute(
      "zbarimg", ["--quiet", "--raw", png], stdin: nil, environment: deck.environment, in: deck.home)
    #expect(decoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(server.url)/r/\(id)")

    kiosk.send("\u{03}")
    #expect(try kiosk.waitForExit() == 130, "Ctrl-C stops the kiosk")
    #expect(isCooked(kiosk), "the terminal is restored")
  }

  @Test func terminalKioskRePairsWithTheHiddenKeyAndRestoresOnSIGTERM() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    let kiosk = try startKiosk(deck)
    kiosk.send("\u{12}")  // Ctrl-R: the logo's long press
    try kiosk.expect("Store ID: store_demo")
    kiosk.send("r")
    try kiosk.expect("Enter Store ID:")
    kiosk.send("store_nope\r")
    try kiosk.expect("not found")
    kiosk.send("\u{15}store_abc123\r")  // Ctrl-U clears the field
    try kiosk.expect("Tap to Start")
    #expect(try screen(deck) == "idle")
    #expect(try object(deck, ["kiosk", "status", "--json"])["storePublicId"] as? String == "store_abc123")

    kill(kiosk.pid, SIGTERM)
    #expect(try kiosk.waitForExit() == 128 + SIGTERM)
    #expect(isCooked(kiosk), "the terminal is restored on SIGTERM")
  }
}
