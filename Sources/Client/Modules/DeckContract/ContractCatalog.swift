import ContractCheck
import DeckConfig
import DeckSupport

/// The contracts `deck contract check` probes: every OpenAPI document of the package (embedded
/// at build time by the EmbedContracts plugin) that names its service with `x-deck-service`.
/// The operator contracts (`/__sandbox`) name none: a real backend does not serve them, and
/// schemathesis checks them against the sandbox.
struct ContractCatalog: Sendable {
  struct Entry: Sendable {
    var service: Service
    var document: ContractDocument
  }

  var entries: [Entry]

  /// The embedded documents, parsed. A document that does not parse, or names a service deck
  /// does not know, is a build mistake: the tests load them all (ContractCatalogTests).
  static func embedded() throws -> ContractCatalog {
    try ContractCatalog(
      documents: EmbeddedContracts.files.map { (name: $0.name, yaml: $0.text) }, services: Service.allCases)
  }

  init(documents: [(name: String, yaml: String)], services: [Service]) throws {
    entries = try documents.compactMap { name, yaml in
      let document: ContractDocument
      do {
        document = try ContractDocument(yaml: yaml, name: name)
      } catch {
        throw DeckError.failure("The contract \(name) could not be read: \(error)")
      }
      guard let serviceName = document.service else { return nil }
      guard let service = services.first(where: { $0.rawValue == serviceName }) else {
        throw DeckError.failure(
          "The contract \(name) names the service \"\(serviceName)\" (x-deck-service), which no module declares.")
      }
      return Entry(service: service, document: document)
    }
  }

  /// The operations to probe, in document order: those of the services and operation ids asked
  /// for (all when none are), each with its document and service.
  func operations(services: [String], operationIDs: [String]) throws -> [(Entry, ContractOperation)] {
    let known = Set(entries.map(\.service.rawValue))
    for name in services where !known.contains(name) {
      throw DeckError.usage(
        "No contract is served by \"\(name)\".",
        hint: "Services with contracts: \(known.sorted().joined(separator: ", ")).")
    }
    let all = entries.filter { services.isEmpty || services.contains($0.service.rawValue) }
      .flatMap { entry in entry.document.operations.map { (entry, $0) } }
    let ids = Set(all.map(\.1.id))
    for id in operationIDs where !ids.contains(id) {
      throw DeckError.usage(
        "No operation has the id \"\(id)\".", hint: "List them with: deck contract list")
    }
    return all.filter { operationIDs.isEmpty || operationIDs.contains($0.1.id) }
  }
}
