import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import KioskRules

struct KioskApprove: DeckCommand, NamingFiles {
  static let files = FileArguments(writes: ["--qr-png"])

  static let configuration = CommandConfiguration(
    commandName: "approve", _superCommandName: "deck",
    abstract: "The customer approves the review: show the handoff QR code.",
    discussion: HelpText.discussion(
      """
      Calls POST /api/v1/kiosk/{storeId}/sessions/{sessionId}/approve, then shows the handoff:
      a QR code of {kiosk base URL}/r/{sessionPublicId}, the page where the customer copies and
      posts the review. The handoff lasts 30 seconds; finish it with deck kiosk done (a later
      command marks it done once the time is up). Without colour, the code is drawn for a dark
      terminal background. With --json, the URL instead of the drawing.
      """,
      exits: KioskModule.commandExits))

  @OptionGroup var global: GlobalOptions

  @Option(
    help: ArgumentHelp("Also write the QR code as a PNG image to this file (for checking it).", valueName: "path"),
    completion: .file(extensions: ["png"]))
  var qrPng: String?

  func run(_ context: DeckContext) async throws {
    let kiosk = try KioskController(context: context)
    try await kiosk.catchUp()
    let request = try kiosk.act { state throws(KioskRuleError) in try state.approve() }
    try await kiosk.perform(request)
    let service = try await kiosk.service()
    guard let url = kiosk.state.handoffURL(baseURL: service.baseURL) else { return }
    let code = try QRCode(url)
    if let qrPng { try code.writePNG(to: qrPng) }
    let remaining = kiosk.state.remainingHandoffSeconds(at: Date())
    try await kiosk.emitStatus(acted: kiosk.state.currentSession) { _ in
      context.output.info("Scan to post your review:")
      // The code's own colours: written raw (it holds no text from the server).
      context.output.writeOut(code.halfBlockLines(color: context.output.colorEnabled).joined(separator: "\n") + "\n")
      context.output.line(url)
      context.output.info("Time remaining: \(remaining)s. Finish with: deck kiosk done")
    }
  }
}
