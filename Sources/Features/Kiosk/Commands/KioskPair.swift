import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import KioskRules

struct KioskPair: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "pair", _superCommandName: "deck",
    abstract: "Pair the kiosk with a store (checked with the backend first).",
    discussion: HelpText.discussion(
      """
      Calls GET /api/v1/kiosk/{storeId}/next to check the store exists, then saves the pairing
      for the environment and goes to idle. An unknown store is an error (exit 1) and nothing is
      saved. Pairing the store the kiosk is already paired with changes nothing and exits 0
      (with --json, "changed": false), so a script can pair every time it runs. A kiosk paired
      with another store must be unpaired first (deck kiosk unpair), or paired with --force,
      which unpairs it (on idle only, as unpair) and pairs it with the new store; if the new
      store cannot be paired, the old pairing is kept.
      """,
      exits: KioskModule.commandExits))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The store's public id, e.g. store_demo.", valueName: "store-id"))
  var storeId: String

  @Flag(help: "Unpair from another store first (as deck kiosk unpair does; the kiosk must be on idle).")
  var force = false

  func validate() throws {
    guard KioskRules.sanitizeStoreId(storeId) != nil else {
      throw ValidationError("The store id is empty. Give one, e.g.: deck kiosk pair store_demo")
    }
  }

  func run(_ context: DeckContext) async throws {
    let kiosk = try KioskController(context: context)
    let previous = kiosk.state.storePublicId
    if kiosk.state.currentScreen != .pairing, let store = kiosk.state.storePublicId {
      if store == KioskRules.sanitizeStoreId(storeId) {
        // A re-run of the same pairing: nothing to do, nothing sent. Said on stderr in every
        // format (a script's log shows it), and with "changed": false in the data.
        context.output.info(
          "The kiosk is already paired with store \(store) in environment \(kiosk.file.environment); nothing changed.")
        return try await kiosk.emitPairing(changed: false) { view in view.printFields(context.output) }
      }
      guard force else {
        throw DeckError.usage(
          "The kiosk is already paired with store \(store) (\(kiosk.state.currentScreen.label) screen).",
          hint: "Unpair it first with: deck kiosk unpair, or pair with: deck kiosk pair --force \(storeId)")
      }
      // As unpair does; a handoff that timed out is marked done and saved first.
      try await kiosk.catchUp()
      try kiosk.save()
      try kiosk.act { state throws(KioskRuleError) in try state.rePair() }
    }
    let request = try kiosk.act { state throws(KioskRuleError) in try state.pair(storeId: storeId) }
    let failure = try await kiosk.service().run(request, on: &kiosk.state)
    if let failure {
      // Nothing is saved: the kiosk stays unpaired, or paired with the store it had (--force).
      var error = failure
      error.message = "Cannot pair with store \(request.storeId ?? storeId): \(failure.message)"
      if case .notFound = failure.kind {
        error.hint =
          "Check the store id. Nothing was saved; the kiosk is still "
          + (previous.map { "paired with store \($0)." } ?? "unpaired.")
      }
      throw error
    }
    try kiosk.save()
    try await kiosk.emitPairing(changed: true) { view in
      context.output.info(
        "Paired with store \(view.storePublicId ?? storeId) in environment \(view.environment). The kiosk is idle: wait for a purchase with deck kiosk next."
      )
      view.printFields(context.output)
    }
  }
}

extension KioskRequest {
  /// The store a request is about, if any.
  var storeId: String? {
    switch self {
    case .validateStore(let store), .fetchNext(let store), .submitRating(let store, _, _), .approve(let store, _),
      .decline(let store, _):
      store
    case .markDone:
      nil
    }
  }
}
