import Foundation

/// One operation of a contract: what it takes, and the check of what it answered.
public struct ContractOperation: Sendable {
  /// The operationId, or "GET /path" when it has none.
  public let id: String
  /// Uppercase: GET, HEAD, POST, ...
  public let method: String
  /// The templated path as in the document: /brokerages/{id}.
  public let path: String
  /// Path-level and operation-level parameters merged (the operation's win).
  public let parameters: [ContractParameter]
  /// The effective security (the operation's, else the document's) requires a credential: it has
  /// requirements and none of them is the empty one (which makes authentication optional).
  public let requiresAuth: Bool
  /// The response keys as written: "200", "4XX", "default".
  public let documentedStatuses: [String]

  let responses: JSONObject
  let document: JSONValue

  /// GET or HEAD: the only methods `contract check` sends.
  public var isSafe: Bool { method == "GET" || method == "HEAD" }
}
