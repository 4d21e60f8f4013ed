import ContractCheck

/// What the contracts say of the property a sandbox shape rule (`deck sandbox fault add
/// --drop-field|--retype-field|--enum-value`) names: the operations its path matches and the
/// properties their answers can hold.
public enum ContractFields {
  public struct Answers: Sendable, Equatable {
    /// The operations the path matches, as "GET /questions/ (getQuestions)", in document order.
    public var operations: [String]
    /// Every property name their JSON answers (any status) can hold, at any depth, sorted.
    public var fields: [String]
  }

  /// The answers of the contracts' operations that a fault rule's path pattern (and method, nil
  /// for any) matches; nil when it matches none, or when one of their schemas leaves the
  /// property names open (then any name may be there).
  public static func answers(pattern: String, method: String?) -> Answers? {
    guard let catalog = try? ContractCatalog.embedded() else { return nil }
    var operations: [String] = []
    var fields: Set<String> = []
    for entry in catalog.entries {
      for operation in entry.document.operations(matchingFaultPattern: pattern, method: method) {
        guard let names = operation.responsePropertyNames else { return nil }
        operations.append("\(operation.method) \(operation.path) (\(operation.id))")
        fields.formUnion(names)
      }
    }
    return operations.isEmpty ? nil : Answers(operations: operations, fields: fields.sorted())
  }
}
