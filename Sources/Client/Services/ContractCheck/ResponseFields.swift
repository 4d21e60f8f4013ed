import DeckValues

/// The property names a contract's answers can hold, for `deck sandbox fault add
/// --drop-field|--retype-field|--enum-value`: a shape rule acts on a property of the real
/// answer, so one naming a property no answer of the matched operations has can never act.
extension ContractDocument {
  /// The operations whose path (the servers' base path and the template) a fault rule's path
  /// pattern matches, and of `method` when given: `*` within a segment, `**` across segments,
  /// empty segments ignored, a template's `{parameter}` matching any one segment.
  public func operations(matchingFaultPattern pattern: String, method: String?) -> [ContractOperation] {
    let wanted = pattern.split(separator: "/").map(String.init)
    return operations.filter { operation in
      if let method, method != operation.method { return false }
      let template = (basePath + "/" + operation.path).split(separator: "/").map(String.init)
      return FaultPatternMatch.matches(wanted, template)
    }
  }
}

extension ContractOperation {
  /// Every property name the JSON bodies of its responses (any status) can hold, at any depth;
  /// nil when a schema leaves them open (`additionalProperties`, or a value of any shape).
  public var responsePropertyNames: Set<String>? {
    var names: Set<String> = []
    var seen: Set<String> = []
    var schemas: [JSONValue] = []
    for (_, raw) in responses.entries {
      let response = ContractDocument.resolved(raw, in: document)
      for (mediaType, content) in response["content"]?.objectValue?.entries ?? [] where mediaType.contains("json") {
        if let schema = content["schema"] { schemas.append(schema) }
      }
    }
    while let next = schemas.popLast() {
      if let reference = next["$ref"]?.stringValue {
        guard seen.insert(reference).inserted else { continue }
      }
      let schema = ContractDocument.resolved(next, in: document)
      guard case .object(let object) = schema else {
        if schema == .bool(true) { return nil }
        continue
      }
      // A schema that says nothing of its shape (`{}`, a description only) allows any value.
      let shapeKeys = ["type", "properties", "items", "allOf", "anyOf", "oneOf", "enum", "const", "prefixItems"]
      guard shapeKeys.contains(where: { object[$0] != nil }) else { return nil }
      if let extra = object["additionalProperties"], extra != .bool(false) { return nil }
      for (name, property) in object["properties"]?.objectValue?.entries ?? [] {
        names.insert(name)
        schemas.append(property)
      }
      for key in ["items", "not", "if", "then", "else", "contains"] {
        if let child = object[key] { schemas.append(child) }
      }
      for key in ["allOf", "anyOf", "oneOf", "prefixItems"] {
        schemas += object[key]?.arrayValue ?? []
      }
    }
    return names
  }
}

/// A fault rule's path pattern against a contract's path template, segment by segment.
enum FaultPatternMatch {
  static func matches(_ pattern: [String], _ template: [String]) -> Bool {
    var memo: [Int: Bool] = [:]
    func go(_ i: Int, _ j: Int) -> Bool {
      let key = i * (template.count + 1) + j
      if let known = memo[key] { return known }
      let result: Bool
      if i == pattern.count {
        result = j == template.count
      } else if pattern[i] == "**" {
        result = go(i + 1, j) || (j < template.count && go(i, j + 1))
      } else if j < template.count, isParameter(template[j]) || segment(pattern[i], matches: template[j]) {
        result = go(i + 1, j + 1)
      } else {
        result = false
      }
      memo[key] = result
      return result
    }
    return go(0, 0)
  }

  static func isParameter(_ segment: String) -> Bool {
    segment.hasPrefix("{") && segment.hasSuffix("}")
  }

  /// `*` within a segment matches any run of characters.
  static func segment(_ pattern: String, matches text: String) -> Bool {
    let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
    guard parts.count > 1, let first = parts.first, let last = parts.last else { return pattern == text }
    guard text.hasPrefix(first), text.count >= first.count + last.count else { return false }
    var rest = text.dropFirst(first.count)
    for part in parts.dropFirst().dropLast() {
      guard let range = rest.firstRange(of: part) else { return false }
      rest = rest[range.upperBound...]
    }
    return rest.hasSuffix(last)
  }
}
