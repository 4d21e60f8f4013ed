import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import KioskRules

struct KioskNext: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "next", _superCommandName: "deck",
    abstract: "Poll once for the next purchase; a PENDING session moves the kiosk to rating.",
    discussion: HelpText.discussion(
      """
      Calls GET /api/v1/kiosk/{storeId}/next. When a PENDING session is waiting, the kiosk moves
      to the rating screen and the total and items are shown; otherwise it stays idle (exit 0).
      With --wait, polls every --poll-interval seconds (7, as the idle screen does) until one comes.

      When several purchases are waiting, the newest comes first: the backend offers the store's
      newest PENDING session, so a script that triggers five purchases and then steps through
      them meets them newest to oldest. With --json, "acted" is the session found (null when
      none was), as every step command reports the session it acted on.
      """,
      exits: KioskModule.commandExits))

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Keep polling until a session comes.")
  var wait = false

  @Option(help: ArgumentHelp("Seconds between polls with --wait.", valueName: "seconds"))
  var pollInterval: Double = KioskTimings.standard.pollInterval

  func validate() throws {
    guard pollInterval >= 0.05, pollInterval <= 3600 else {
      throw ValidationError("--poll-interval must be between 0.05 and 3600 seconds, got \(pollInterval).")
    }
  }

  func run(_ context: DeckContext) async throws {
    let kiosk = try KioskController(context: context)
    try await kiosk.catchUp()
    let spinner = Spinner(output: context.output)
    defer { spinner.stop() }
    while true {
      let request = try kiosk.act { state throws(KioskRuleError) in try state.poll() }
      do {
        try await kiosk.perform(request)
      } catch let error as DeckError where wait && error.kind != .interrupted {
        spinner.stop()
        context.output.error("\(error.message) (polling again in \(Self.seconds(pollInterval)))")
      }
      if kiosk.state.currentScreen != .idle || !wait { break }
      spinner.start("Waiting for a purchase at \(kiosk.state.storePublicId ?? "the store")…")
      try await Task.sleep(for: .seconds(pollInterval))
    }
    spinner.stop()
    let found = kiosk.state.currentScreen == .rating ? kiosk.state.currentSession : nil
    try await kiosk.emitStatus(acted: found) { _ in
      guard kiosk.state.currentScreen == .rating, let session = kiosk.state.currentSession else {
        return context.output.info(
          "No purchase is waiting at store \(kiosk.state.storePublicId ?? "?"); the kiosk stays idle.")
      }
      context.output.info("Session \(session.publicId) is waiting for a rating. Rate it with: deck kiosk rate 1..5")
      context.output.fields([("session", session.publicId)])
      kiosk.printOrder()
    }
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value))s" : "\(value)s"
  }
}
