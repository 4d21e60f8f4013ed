import Foundation
import TestSupport
import Testing

/// The terminal kiosk's handoff screen on standard terminal sizes (issue 45, item 4): what the
/// real `deck kiosk run` wrote to a pseudo-terminal is replayed on `ScreenModel`, its half
/// blocks are rendered to pixels as a terminal shows them, and zbarimg must read the handoff
/// URL from that picture, as a phone's camera would.
@Suite("Kiosk handoff screen", .endToEndTimeLimit)
struct KioskHandoffScreenEndToEndTests: KioskSteps {
  /// Whether zbarimg (zbar-tools, installed by scripts/setup) is on PATH.
  static let hasZbarimg = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    .contains { FileManager.default.isExecutableFile(atPath: "\($0)/zbarimg") }

  @Test(
    "the handoff QR code is drawn at 80×24 and 40×20, in colour and without, and decodes to the handoff URL",
    .enabled(if: hasZbarimg, "zbarimg is not installed: apt-get install zbar-tools (./scripts/setup installs it)"),
    arguments: [(80, 24, false), (40, 20, true), (80, 24, true)])
  func qrCodeDecodesFromTheScreen(arguments: (Int, Int, Bool)) throws {
    let size = (columns: arguments.0, rows: arguments.1, noColor: arguments.2)
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try object(deck, ["kiosk", "pair", "store_demo", "--json"])
    let kiosk = try PseudoTerminal(
      deck: deck, ["kiosk", "run", "--poll-interval", "0.2"],
      environment: size.noColor ? ["NO_COLOR": "1"] : [:], columns: UInt16(size.columns), rows: UInt16(size.rows))
    try kiosk.expect("Tap to Start")
    let id = try purchase(deck)
    try kiosk.expect("Rate Your Experience")
    kiosk.send("5\r")
    try kiosk.expect("Your Review")
    kiosk.send("y")
    try kiosk.expect("Time remaining:")
    _ = kiosk.pending(waiting: 0.5)

    var model = ScreenModel(columns: size.columns, rows: size.rows)
    model.feed(ArraySlice(Array(kiosk.raw.unicodeScalars)))
    let comment = "\(size.columns)×\(size.rows)\(size.noColor ? ", NO_COLOR" : ""):\n\(model.text)"
    #expect(!model.scrolled && model.lastColumnUnused, "the frame fits: \(comment)")
    #expect(!model.text.contains("Make the terminal"), "\(comment)")
    // The URL reads whole, broken only after a slash: the session id is on one line.
    let url = "\(server.url)/r/\(id)"
    #expect(model.lines.contains { $0.contains(id) }, "\(comment)")
    #expect(model.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined().contains("URL: \(url)"), "\(comment)")
    #expect(model.text.contains("Time remaining:") && model.text.contains("Done"), "\(comment)")

    let image = deck.home + "/screen-\(size.columns)x\(size.rows).pgm"
    try model.pixels().write(to: URL(fileURLWithPath: image))
    let decoded = try DeckCLI.execute(
      "zbarimg", ["--quiet", "--raw", image], stdin: nil, environment: deck.environment, in: deck.home)
    #expect(decoded.status == 0, "zbarimg read no code: \(decoded.stderr)\n\(comment)")
    #expect(decoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == url, "\(comment)")

    kiosk.send("\r")
    try kiosk.expect("Thank You!")
    // Ctrl-C is how the kiosk is stopped: said plainly, not as an error, exit 130 as documented.
    kiosk.send("\u{03}")
    #expect(try kiosk.waitForExit() == 130)
    let after = kiosk.pending()
    #expect(after.contains("Kiosk stopped."), "\(after)")
    #expect(!after.lowercased().contains("error"), "\(after)")
  }
}
