import ArgumentParser
import DeckCore
import DeckSupport

struct TriggerStore: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "store", _superCommandName: "deck",
    abstract: "Create a store with no sessions (as a merchant's onboarding would).",
    discussion: HelpText.discussion(
      """
      A store of its own keeps a kiosk's sessions apart from everyone else's on a shared
      sandbox: the shipped QA scenarios that pair make one each. Then pair with it (`deck kiosk
      pair ID`) and play its purchases (`deck sandbox trigger purchase --store ID`). The seeded
      stores are store_demo and store_abc123.
      """, exits: SandboxOperator.exits + [.rejected("the id is taken already")]))

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: ArgumentHelp(
      "The store's public id: 1 to 64 letters, digits, _ and -, e.g. store_qa_1.", valueName: "store-id"))
  var storeId: String

  @Option(help: ArgumentHelp("Its name on the kiosk (default: Boutique and its id).", valueName: "name"))
  var name: String?

  func validate() throws {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-".utf8)
    guard (1...64).contains(storeId.utf8.count), storeId.utf8.allSatisfy(allowed.contains) else {
      throw ValidationError(
        "The store id must be 1 to 64 letters, digits, _ and -, got \"\(TerminalText.sanitize(storeId))\".")
    }
    if let name, !(1...100).contains(name.unicodeScalars.count) || name.trimming(.whitespaces).isEmpty {
      throw ValidationError("--name must be 1 to 100 characters, not blank.")
    }
  }

  func run(_ context: DeckContext) async throws {
    let store = try await SandboxKioskAdmin.client(context).createStore(
      body: .json(.init(publicId: storeId, name: name))
    ).created.body.json
    try context.output.emit(
      InspectStore.StoreView(
        publicId: store.publicId, name: store.name, lastApprovedSessionId: store.lastApprovedSessionId,
        sessions: [
          "PENDING": store.sessions.PENDING, "RATED": store.sessions.RATED, "APPROVED": store.sessions.APPROVED,
          "DECLINED": store.sessions.DECLINED, "POSTED_INTENT": store.sessions.POSTED_INTENT,
        ]),
      message: "Created store \(store.publicId) (\(store.name)); pair with it: deck kiosk pair \(store.publicId)")
  }
}
