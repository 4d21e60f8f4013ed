import ArgumentParser
import DeckCore
import KioskRules

struct KioskUnpair: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "unpair", _superCommandName: "deck",
    abstract: "Forget the paired store (the idle screen's hidden Re-pair).",
    discussion: HelpText.discussion(
      """
      Only on idle: finish or cancel a session first. Pair again with deck kiosk pair STORE_ID. A
      kiosk that is not paired stays so: the command says so and exits 0 (with --json,
      "changed": false), so a script can unpair every time it runs.
      """,
      exits: [
        .failure("the kiosk's state cannot be read or saved"), .usage("the kiosk is not on idle (nothing was changed)"),
        .unavailable("backend unreachable (marking a handoff whose time ran out done)"),
      ]))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let kiosk = try KioskController(context: context)
    guard kiosk.state.storePublicId != nil else {
      // Said on stderr in every format, and with "changed": false in the data.
      context.output.info("The kiosk was not paired; nothing changed. Pair it with: deck kiosk pair STORE_ID")
      return try await kiosk.emitPairing(changed: false) { _ in }
    }
    try await kiosk.catchUp()
    let store = kiosk.state.storePublicId
    try kiosk.act { state throws(KioskRuleError) in try state.rePair() }
    try kiosk.save()
    try await kiosk.emitPairing(changed: true) { _ in
      context.output.info("Unpaired from store \(store ?? ""). Pair again with: deck kiosk pair STORE_ID")
    }
  }
}
