import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import KioskRules

struct KioskRun: DeckCommand, NamingFiles {
  static let files = FileArguments(writes: ["--qr-png"])

  static let configuration = CommandConfiguration(
    commandName: "run", _superCommandName: "deck",
    abstract: "Run the kiosk: full-screen in the terminal, or scripted with no prompts.",
    discussion: HelpText.discussion(
      """
      On a terminal, runs the kiosk full-screen: the attract screen polls for purchases, then the
      star picker (1-5 or the arrow keys, Enter; Esc cancels), consent (y/n), the handoff QR code
      with its countdown (Enter is Done), thank-you, and back to idle. On idle, Ctrl-R opens the
      hidden settings (Re-pair, Quit). Ctrl-C stops the kiosk (exit 130); the terminal is always
      restored.

      Scripted, with --rating and --approve or --decline (required when stdin or stdout is not a
      terminal): processes --sessions N purchases end to end (all of them, until interrupted,
      without --sessions), as a customer who always gives that rating and answer would, and
      prints one line per session, or with --json one JSON object per line with publicId, the
      final status and the timings in milliseconds. The handoff ends by its timeout, as when
      nobody taps Done. Exit 0 when every session ended POSTED_INTENT (or DECLINED), else the
      first failure's code.

      The kiosk uses the environment's saved pairing (deck kiosk pair), or --store for this run
      only. Pairing or re-pairing on the full-screen kiosk is saved.
      """,
      exits: KioskModule.commandExits + [.interrupted()]))

  @OptionGroup var global: GlobalOptions

  @Option(help: ArgumentHelp("Use this store for this run (checked first; not saved).", valueName: "store-id"))
  var store: String?

  @Option(help: ArgumentHelp("Scripted: stop after this many sessions.", valueName: "n"))
  var sessions: Int?

  @Option(help: ArgumentHelp("Scripted: the customer's rating, 1 to 5.", valueName: "stars"))
  var rating: Int?

  enum Answer: String, EnumerableFlag {
    case approve, decline

    static func help(for value: Answer) -> ArgumentHelp? {
      value == .approve ? "Scripted: the customer approves the review." : "Scripted: the customer declines it."
    }
  }

  @Flag(exclusivity: .exclusive)
  var answer: Answer?

  @Option(help: ArgumentHelp("Seconds between polls on idle.", valueName: "seconds"))
  var pollInterval: Double = KioskTimings.standard.pollInterval

  @Option(help: ArgumentHelp("Seconds the handoff QR code stays up.", valueName: "seconds"))
  var handoffTimeout: Double = KioskTimings.standard.handoffTimeout

  @Option(help: ArgumentHelp("Seconds the thank-you stays up.", valueName: "seconds"))
  var thankYou: Double = KioskTimings.standard.thankYouDuration

  @Option(
    help: ArgumentHelp("Write each handoff QR code as a PNG image to this file.", valueName: "path"),
    completion: .file(extensions: ["png"]))
  var qrPng: String?

  var isScripted: Bool { sessions != nil || rating != nil || answer != nil }

  func validate() throws {
    if let sessions, sessions < 1 { throw ValidationError("--sessions must be at least 1, got \(sessions).") }
    if let rating, !KioskRules.ratings.contains(rating) {
      throw ValidationError("--rating must be 1 to 5, got \(rating).")
    }
    if isScripted {
      guard rating != nil, answer != nil else {
        throw ValidationError("A scripted run needs --rating 1..5 and --approve or --decline.")
      }
    }
    guard pollInterval >= 0.05, pollInterval <= 3600 else {
      throw ValidationError("--poll-interval must be between 0.05 and 3600 seconds, got \(pollInterval).")
    }
    guard KioskTimings.range.contains(handoffTimeout) else {
      throw ValidationError("--handoff-timeout must be between 0 and 3600 seconds, got \(handoffTimeout).")
    }
    guard KioskTimings.range.contains(thankYou) else {
      throw ValidationError("--thank-you must be between 0 and 3600 seconds, got \(thankYou).")
    }
    if let store, KioskRules.sanitizeStoreId(store) == nil { throw ValidationError("--store is empty.") }
  }

  func run(_ context: DeckContext) async throws {
    let timings = KioskTimings(pollInterval: pollInterval, handoffTimeout: handoffTimeout, thankYouDuration: thankYou)
    let file = try KioskStateFile(context: context)
    let storeId = store.flatMap(KioskRules.sanitizeStoreId)

    if isScripted, let rating, let answer {
      guard let storeId = try storeId ?? file.load().storePublicId else {
        throw DeckError.usage(
          "The kiosk is not paired in environment \(file.environment).",
          hint: "Pair it with: deck kiosk pair STORE_ID, or give --store STORE_ID")
      }
      let service = try await KioskService.connect(context)
      try await ScriptedKiosk(
        context: context, service: service, storeId: storeId, sessions: sessions, rating: rating,
        approve: answer == .approve, timings: timings, qrPNG: qrPng
      ).run()
      return
    }

    guard TerminalInput.stdinIsTerminal, context.output.stdoutIsTerminal else {
      throw DeckError.usage(
        "deck kiosk run needs a terminal; without one, run it scripted.",
        hint: "For example: deck kiosk run --sessions 10 --rating 5 --approve --json")
    }
    let service = try await KioskService.connect(context)
    let kiosk = try TerminalKiosk(
      context: context, service: service, file: file, timings: timings, storeId: storeId, qrPNG: qrPng)
    switch try await kiosk.run() {
    case .quit:
      context.output.info("Kiosk stopped.")
    case .interrupted:
      // Ctrl-C is how the kiosk is stopped: said plainly, not as an error, with its exit 130.
      context.output.info("Kiosk stopped.")
      throw ArgumentParser.ExitCode(DeckSupport.ExitCode.interrupted)
    }
  }
}
