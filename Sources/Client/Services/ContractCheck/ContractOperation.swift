import DeckSupport
import DeckValues
import FoundationEssentials

/// A response as it came back from a backend.
public struct ContractResponse: Sendable {
  public let status: Int
  /// Header names lowercased (they compare case-insensitively); a repeated name keeps the last value.
  public let headers: [String: String]
  public let body: [UInt8]

  public init(status: Int, headers: [String: String], body: [UInt8]) {
    self.status = status
    var lowered: [String: String] = [:]
    for (name, value) in headers { lowered[name.lowercased()] = value }
    self.headers = lowered
    self.body = body
  }

  /// The value of the header `name`, whatever its case.
  public func header(_ name: String) -> String? {
    headers[name.lowercased()]
  }
}

/// One way a response differs from its operation's contract.
public struct ContractFinding: Sendable, Codable, Hashable {
  public enum Kind: String, Sendable, Codable {
    case status, contentType, header, body
  }

  /// The operation's id.
  public let operation: String
  public let kind: Kind
  /// A JSON path into the body ("$", "$.items[0].name"); a header's name; "" for status and
  /// content type.
  public let path: String
  /// What the contract says, short: "string (format uuid)", "one of [a, b]", "required".
  public let expected: String
  /// What came back, short (at most 80 characters): "number 42", "missing", "text/html".
  public let actual: String

  public init(operation: String, kind: Kind, path: String, expected: String, actual: String) {
    self.operation = operation
    self.kind = kind
    self.path = path
    self.expected = JSONValue.truncated(expected, 80)
    self.actual = JSONValue.truncated(actual, 80)
  }

  /// One line: "<operation> <path>: expected <expected>, got <actual>".
  public var message: String {
    "\(operation)\(path.isEmpty ? "" : " " + path): expected \(expected), got \(actual)"
  }
}

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

  /// At most this many findings are reported for one response.
  public static let findingLimit = 50

  /// GET or HEAD: the only methods `contract check` sends.
  public var isSafe: Bool { method == "GET" || method == "HEAD" }

  /// How `response` differs from the contract: an undocumented status, a content type not
  /// documented for that status, a missing required header or one that breaks its schema, and a
  /// JSON body that does not parse or breaks the response's schema. Empty when it conforms.
  public func check(_ response: ContractResponse) -> [ContractFinding] {
    guard let documented = documentedResponse(for: response.status) else {
      return [
        finding(
          .status, "", expected: "documented: " + documentedStatuses.joined(separator: ", "),
          actual: String(response.status))
      ]
    }
    var findings = checkHeaders(documented, response)
    if method != "HEAD" {
      findings += checkContent(documented, response)
    }
    return Array(findings.prefix(Self.findingLimit))
  }

  /// The response object for a status: the exact code, then its range (4XX), then default.
  func documentedResponse(for status: Int) -> JSONObject? {
    let code = String(status)
    let range = (100...599).contains(status) ? "\(status / 100)XX" : nil
    for (key, value) in responses.entries where key == code {
      return ContractDocument.resolved(value, in: document).objectValue
    }
    if let range {
      for (key, value) in responses.entries where key.uppercased() == range {
        return ContractDocument.resolved(value, in: document).objectValue
      }
    }
    if let fallback = responses["default"] {
      return ContractDocument.resolved(fallback, in: document).objectValue
    }
    return nil
  }

  private func finding(_ kind: ContractFinding.Kind, _ path: String, expected: String, actual: String)
    -> ContractFinding
  {
    ContractFinding(operation: id, kind: kind, path: path, expected: expected, actual: actual)
  }

  private func checkHeaders(_ documented: JSONObject, _ response: ContractResponse) -> [ContractFinding] {
    var findings: [ContractFinding] = []
    for (name, raw) in documented["headers"]?.objectValue?.entries ?? [] {
      // Content-Type is described by the content, not as a header (OpenAPI ignores it here).
      guard name.lowercased() != "content-type" else { continue }
      let header = ContractDocument.resolved(raw, in: document)
      guard let value = response.header(name) else {
        if header["required"]?.boolValue == true {
          findings.append(finding(.header, name, expected: "required", actual: "missing"))
        }
        continue
      }
      guard let schema = header["schema"] else { continue }
      let validator = SchemaValidator(document: document, limit: 1)
      let resolvedSchema = ContractDocument.resolved(schema, in: document)
      for violation in validator.validate(Self.headerValue(value, for: resolvedSchema), against: schema) {
        findings.append(finding(.header, name, expected: violation.expected, actual: violation.actual))
      }
    }
    return findings
  }

  /// A header's text as the JSON value its (simple) schema describes: a number, a boolean or a string.
  static func headerValue(_ text: String, for schema: JSONValue) -> JSONValue {
    let trimmed = text.trimming(.whitespaces)
    let types = schema["type"]?.stringValue.map { [$0] } ?? schema["type"]?.arrayValue?.compactMap(\.stringValue) ?? []
    if types.contains("integer") || types.contains("number"), let parsed = try? JSONParser.parse(Array(trimmed.utf8)),
      case .number = parsed
    {
      return parsed
    }
    if types.contains("boolean"), trimmed == "true" || trimmed == "false" { return .bool(trimmed == "true") }
    return .string(text)
  }

  private func checkContent(_ documented: JSONObject, _ response: ContractResponse) -> [ContractFinding] {
    let content = documented["content"]?.objectValue ?? JSONObject()
    guard content.count > 0 else { return [] }  // no documented content: nothing to check
    let documentedTypes = content.keys
    let expectedTypes = documentedTypes.joined(separator: ", ")
    guard let contentType = response.header("Content-Type") else {
      if response.body.isEmpty {
        return [finding(.body, JSONPath.root, expected: "a body (\(expectedTypes))", actual: "empty")]
      }
      return [finding(.contentType, "", expected: expectedTypes, actual: "missing")]
    }
    let mediaType = Self.mediaType(contentType)
    guard let key = Self.matchingMediaType(mediaType, in: documentedTypes), let media = content[key] else {
      return [finding(.contentType, "", expected: expectedTypes, actual: contentType)]
    }
    guard Self.isJSON(mediaType), let schema = media["schema"] else { return [] }
    let body: JSONValue
    do {
      body = try JSONParser.parse(response.body)
    } catch {
      let actual = response.body.isEmpty ? "empty" : "invalid JSON (\(error.description))"
      return [finding(.body, JSONPath.root, expected: "a JSON body", actual: actual)]
    }
    let validator = SchemaValidator(document: document, limit: Self.findingLimit)
    return validator.validate(body, against: schema).map {
      finding(.body, $0.path, expected: $0.expected, actual: $0.actual)
    }
  }

  /// "application/json; charset=utf-8" → "application/json" (lowercased, without parameters).
  static func mediaType(_ contentType: String) -> String {
    let bare = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    return bare.trimming(.whitespaces).lowercased()
  }

  /// The documented media type (a key of `content`) that covers `mediaType`: the same type, else a
  /// range ("application/*", "*/*").
  static func matchingMediaType(_ mediaType: String, in documented: [String]) -> String? {
    if let exact = documented.first(where: { Self.mediaType($0) == mediaType }) { return exact }
    let major = mediaType.split(separator: "/").first.map(String.init) ?? ""
    if let range = documented.first(where: { Self.mediaType($0) == "\(major)/*" }) { return range }
    return documented.first { Self.mediaType($0) == "*/*" }
  }

  /// JSON media types: application/json and every `+json` type (application/problem+json).
  static func isJSON(_ mediaType: String) -> Bool {
    mediaType == "application/json" || mediaType.hasSuffix("+json")
  }
}
