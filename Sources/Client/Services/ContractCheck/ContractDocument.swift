import DeckValues
import FoundationEssentials

/// Why an OpenAPI document cannot be used: which document, and what is wrong with it.
public struct ContractDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The document's name, as given to `ContractDocument(yaml:name:)`.
  public let document: String
  public let problem: String

  public var description: String { "The contract \(document) cannot be read: \(problem)" }
}

/// One OpenAPI 3.1 document, loaded for `deck contract check`: its operations, what they take and
/// what they answer. The shipped documents are checked against OpenAPI's model at build time
/// (scripts/generate-contracts) and in ContractCheckTests; here the document's frame is checked
/// (`openapi`, `info`, `paths`), and the schemas are used as written.
public struct ContractDocument: Sendable {
  public let name: String
  /// The service the document describes (`x-deck-service`), nil for one that names none (the
  /// sandbox's operator contracts).
  public let service: String?
  /// The path part of `servers[0].url` without a trailing slash ("" when none, or "/").
  public let basePath: String
  /// Every operation, in document order.
  public let operations: [ContractOperation]

  public init(yaml: String, name: String) throws {
    self.name = name
    let fail = { (problem: String) in ContractDocumentError(document: name, problem: problem) }
    let document: JSONValue
    do {
      document = try YAMLTree.load(yaml)
    } catch {
      throw fail("it is not valid YAML: \(error)")
    }
    if let problem = Self.frameProblem(document) { throw fail("it is not an OpenAPI 3 document: \(problem)") }
    if let (reference, location) = Self.unresolvableReference(in: document, at: "#") {
      throw fail("the $ref \"\(reference)\" at \(location) points at nothing in the document")
    }
    service = document["x-deck-service"]?.stringValue
    basePath = Self.basePath(of: document)

    let documentSecurity = document["security"]
    var operations: [ContractOperation] = []
    for (path, item) in document["paths"]?.objectValue?.entries ?? [] {
      guard case .object(let pathItem) = Self.resolved(item, in: document) else { continue }
      let pathParameters = pathItem["parameters"]?.arrayValue ?? []
      for (key, value) in pathItem.entries {
        guard Self.methods.contains(key), case .object(let operation) = value else { continue }
        let method = key.uppercased()
        let parameters = Self.parameters(
          pathLevel: pathParameters, operationLevel: operation["parameters"]?.arrayValue ?? [], in: document)
        let security = operation["security"] ?? documentSecurity
        let requirements = security?.arrayValue ?? []
        let responses = operation["responses"]?.objectValue ?? JSONObject()
        operations.append(
          ContractOperation(
            id: operation["operationId"]?.stringValue ?? "\(method) \(path)", method: method, path: path,
            parameters: parameters,
            requiresAuth: !requirements.isEmpty
              && requirements.allSatisfy { ($0.objectValue?.count ?? 0) > 0 },
            documentedStatuses: responses.keys, responses: responses, document: document))
      }
    }
    self.operations = operations
  }

  /// The operation with this id, if any.
  public func operation(id: String) -> ContractOperation? {
    operations.first { $0.id == id }
  }

  /// What is missing or of the wrong type in the document's frame, if anything.
  static func frameProblem(_ document: JSONValue) -> String? {
    guard case .object = document else { return "expected a mapping at the top" }
    guard let version = document["openapi"]?.stringValue, version.hasPrefix("3.") else {
      return "`openapi` must be a 3.x version string"
    }
    guard case .object? = document["info"], document["info"]?["title"]?.stringValue != nil,
      document["info"]?["version"]?.stringValue != nil
    else { return "`info` must be a mapping with a `title` and a `version`" }
    if let paths = document["paths"] {
      guard let items = paths.objectValue else { return "`paths` must be a mapping" }
      for (path, item) in items.entries {
        guard path.hasPrefix("/") else { return "the path \"\(path)\" must start with /" }
        guard case .object = item else { return "the path \(path) must be a mapping of operations" }
      }
    }
    return nil
  }

  static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

  /// The value, with any chain of local `$ref`s followed (at most 32, so a cycle ends).
  static func resolved(_ value: JSONValue, in document: JSONValue) -> JSONValue {
    var current = value
    for _ in 0..<32 {
      guard let reference = current["$ref"]?.stringValue,
        let target = document.resolve(reference)
      else { return current }
      current = target
    }
    return current
  }

  private static func basePath(of document: JSONValue) -> String {
    guard let server = document["servers"]?.arrayValue?.first, var url = server["url"]?.stringValue else {
      return ""
    }
    // Server variables take their defaults.
    for (variable, definition) in server["variables"]?.objectValue?.entries ?? [] {
      url = url.replacing("{\(variable)}", with: definition["default"]?.stringValue ?? "")
    }
    var path = url
    if let scheme = url.firstRange(of: "://") {
      let rest = url[scheme.upperBound...]
      path = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
    }
    if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<end]) }
    while path.hasSuffix("/") { path.removeLast() }
    return path
  }

  /// The first local `$ref` that resolves to nothing, and where it is.
  private static func unresolvableReference(in value: JSONValue, at location: String) -> (String, String)? {
    var stack: [(JSONValue, String)] = [(value, location)]
    let root = value
    while let (current, place) = stack.popLast() {
      switch current {
      case .object(let object):
        if let reference = object["$ref"]?.stringValue, reference.hasPrefix("#"),
          root.resolve(reference) == nil
        {
          return (reference, place)
        }
        for (key, member) in object.entries.reversed() {
          let escaped = key.replacing("~", with: "~0").replacing("/", with: "~1")
          stack.append((member, place + "/" + escaped))
        }
      case .array(let items):
        for (index, item) in items.enumerated().reversed() { stack.append((item, place + "/\(index)")) }
      default:
        break
      }
    }
    return nil
  }

  /// Path-level and operation-level parameters merged by name and location (the operation's win).
  private static func parameters(pathLevel: [JSONValue], operationLevel: [JSONValue], in document: JSONValue)
    -> [ContractParameter]
  {
    var merged: [ContractParameter] = []
    for raw in pathLevel + operationLevel {
      guard let parameter = ContractParameter(resolved(raw, in: document), in: document) else { continue }
      if let index = merged.firstIndex(where: { $0.name == parameter.name && $0.location == parameter.location }) {
        merged[index] = parameter
      } else {
        merged.append(parameter)
      }
    }
    return merged
  }
}

/// A parameter of an operation, with the values its document gives for it.
public struct ContractParameter: Sendable, Equatable {
  public enum Location: String, Sendable {
    case path, query, header, cookie
  }

  public let name: String
  public let location: Location
  public let required: Bool
  /// Values usable in a URL, from the parameter's example and examples, its schema's example and
  /// examples, default and first enum value, in that order, without repeats.
  public let examples: [String]

  init?(_ raw: JSONValue, in document: JSONValue) {
    guard let name = raw["name"]?.stringValue, let location = raw["in"]?.stringValue.flatMap(Location.init)
    else { return nil }
    self.name = name
    self.location = location
    self.required = location == .path || raw["required"]?.boolValue == true

    var values: [JSONValue] = []
    if let example = raw["example"] { values.append(example) }
    for (_, example) in raw["examples"]?.objectValue?.entries ?? [] {
      if let value = ContractDocument.resolved(example, in: document)["value"] { values.append(value) }
    }
    let schema = raw["schema"].map { ContractDocument.resolved($0, in: document) }
    if let example = schema?["example"] { values.append(example) }
    values += schema?["examples"]?.arrayValue ?? []
    if let defaultValue = schema?["default"] { values.append(defaultValue) }
    if let first = schema?["enum"]?.arrayValue?.first { values.append(first) }

    var examples: [String] = []
    for value in values {
      let text: String
      switch value {
      case .string(let string): text = string
      case .number(let number): text = number.literal
      case .bool(let bool): text = bool ? "true" : "false"
      default: continue
      }
      if !examples.contains(text) { examples.append(text) }
    }
    self.examples = examples
  }
}
