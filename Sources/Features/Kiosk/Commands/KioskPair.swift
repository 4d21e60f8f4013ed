import ArgumentParser
import DeckCore
import DeckSupport
import Foundation
import KioskRules

struct KioskPair: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "pair", _superCommandName: "deck",
    abstract: "Pair the kiosk with a store (checked with the backend first).",
    discussion: HelpText.discussion(
      """
      Calls GET /api/v1/kiosk/{storeId}/next to check the store exists, then saves the pairing
      for the environment and goes to idle. An unknown store is an error (exit 1) and nothing is
      saved. A paired kiosk must be unpaired first (deck kiosk unpair).
      """,
      exits: KioskModule.commandExits))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The store's public id, e.g. store_demo.", valueName: "store-id"))
  var storeId: String

  func validate() throws {
    guard KioskRules.sanitizeStoreId(storeId) != nil else {
      throw ValidationError("The store id is empty. Give one, e.g.: deck kiosk pair store_demo")
    }
  }

  func run(_ context: DeckContext) async throws {
    let kiosk = try KioskController(context: context)
    if kiosk.state.currentScreen != .pairing, let store = kiosk.state.storePublicId {
      throw DeckError.usage(
        "The kiosk is already paired with store \(store) (\(kiosk.state.currentScreen.label) screen).",
        hint: "Unpair it first with: deck kiosk unpair")
    }
    let request = try kiosk.act { state throws(KioskRuleError) in try state.pair(storeId: storeId) }
    let failure = try await kiosk.service().run(request, on: &kiosk.state)
    if let failure {
      // Nothing is saved: the kiosk stays unpaired.
      var error = failure
      error.message = "Cannot pair with store \(request.storeId ?? storeId): \(failure.message)"
      if case .notFound = failure.kind {
        error.hint = "Check the store id. Nothing was saved; the kiosk is still unpaired."
      }
      throw error
    }
    try kiosk.save()
    try await kiosk.emitStatus { view in
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
