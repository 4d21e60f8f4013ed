import ArgumentParser
import DeckCore

/// `deck contract list`: the operations of the contracts, and which ones `check` sends.
struct ContractListCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", _superCommandName: "deck",
    abstract: "List the contracts' operations: service, id, method, path, and whether check sends it.",
    discussion: HelpText.discussion(exits: [.failure("a contract could not be read")]))

  @OptionGroup var global: GlobalOptions

  struct Row: Encodable {
    var service: String
    var document: String
    var operation: String
    var method: String
    var path: String
    var checked: Bool
    var requiresAuth: Bool
  }

  func run(_ context: DeckContext) async throws {
    let catalog = try ContractCatalog.embedded()
    let rows = catalog.entries.flatMap { entry in
      entry.document.operations.map {
        Row(
          service: entry.service.rawValue, document: entry.document.name, operation: $0.id, method: $0.method,
          path: entry.document.basePath.trimmingSuffix("/") + $0.path, checked: $0.isSafe, requiresAuth: $0.requiresAuth
        )
      }
    }
    try context.output.emit(rows) {
      context.output.table(
        ["SERVICE", "OPERATION", "METHOD", "PATH", "CHECKED", "TOKEN"],
        rows.map {
          [
            $0.service, $0.operation, $0.method, $0.path, $0.checked ? "yes" : "no (writes)",
            $0.requiresAuth ? "yes" : "-",
          ]
        })
    }
  }
}
