import ArgumentParser
import DeckCore
import DeckSupport

struct InspectStore: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "store", _superCommandName: "deck", abstract: "Show a store as the sandbox stores it.",
    discussion: HelpText.discussion(
      """
      Shows publicId, lastApprovedSessionId (null until a session is approved) and how many of
      its sessions are in each status. Exit code 1 when the store does not exist.
      """, exits: SandboxOperator.exits + [.failure("no such store")]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The store's public id, e.g. store_demo.", valueName: "store-id"))
  var storeId: String

  struct StoreView: Encodable {
    var publicId: String
    var name: String
    @ExplicitNull var lastApprovedSessionId: String?
    var sessions: [String: Int]
  }

  func run(_ context: DeckContext) async throws {
    let store = try await SandboxKioskAdmin.client(context).inspectStore(path: .init(storeId: storeId)).ok.body.json
    let counts = [
      ("PENDING", store.sessions.PENDING), ("RATED", store.sessions.RATED), ("APPROVED", store.sessions.APPROVED),
      ("DECLINED", store.sessions.DECLINED), ("POSTED_INTENT", store.sessions.POSTED_INTENT),
    ]
    let view = StoreView(
      publicId: store.publicId, name: store.name, lastApprovedSessionId: store.lastApprovedSessionId,
      sessions: Dictionary(uniqueKeysWithValues: counts))
    try context.output.emit(view) {
      context.output.fields(
        [
          ("publicId", store.publicId),
          ("name", store.name),
          ("lastApprovedSessionId", store.lastApprovedSessionId ?? "-"),
        ] + counts.map { ("sessions " + $0.0, "\($0.1)") })
    }
  }
}
