import DeckValues
import FoundationEssentials

/// One way an instance breaks its schema: where (a JSON path), what the schema says and what the
/// instance holds, both short.
struct SchemaViolation: Sendable, Hashable {
  let path: String
  let expected: String
  let actual: String
}

/// A JSON Schema (2020-12 as OpenAPI 3.1 uses it, plus OpenAPI 3.0's `nullable` and boolean
/// `exclusiveMinimum`/`exclusiveMaximum`) checked against a JSON value. `$ref`s are JSON pointers
/// into `document` ("#/components/schemas/X"); a reference that comes back to itself at the same
/// place in the instance stops there (a cycle constrains nothing more), so no schema loops.
struct SchemaValidator: Sendable {
  /// The document the `$ref`s point into.
  let document: JSONValue
  /// Findings past this many are not reported (nor looked for).
  let limit: Int

  init(document: JSONValue, limit: Int = 50) {
    self.document = document
    self.limit = limit
  }

  /// Every violation of `schema` by `instance` (up to `limit`), each with its path under `path`.
  func validate(_ instance: JSONValue, against schema: JSONValue, at path: String = JSONPath.root) -> [SchemaViolation]
  {
    let evaluation = Evaluation(document: document)
    var out: [SchemaViolation] = []
    evaluation.evaluate(instance, schema, at: path, into: &out, limit: limit)
    return Array(out.prefix(limit))
  }
}

/// One validation's state: the references being followed (cycle guard) and compiled patterns.
private final class Evaluation {
  let document: JSONValue
  private var activeReferences: Set<String> = []
  private var patterns: [String: Regex<AnyRegexOutput>?] = [:]
  private var depth = 0

  init(document: JSONValue) {
    self.document = document
  }

  func isValid(_ instance: JSONValue, _ schema: JSONValue, at path: String) -> Bool {
    var out: [SchemaViolation] = []
    evaluate(instance, schema, at: path, into: &out, limit: 1)
    return out.isEmpty
  }

  func evaluate(
    _ instance: JSONValue, _ schema: JSONValue, at path: String, into out: inout [SchemaViolation], limit: Int
  ) {
    guard out.count < limit else { return }
    let schemaObject: JSONObject
    switch schema {
    case .bool(false):
      out.append(SchemaViolation(path: path, expected: "nothing (schema false)", actual: instance.summary))
      return
    case .object(let object): schemaObject = object
    default: return  // `true`, or not a schema: no constraint
    }
    // A deep instance or schema chain is cut off rather than exhausting the stack.
    guard depth < 400 else { return }
    depth += 1
    defer { depth -= 1 }
    Keywords(evaluation: self, schema: schemaObject, instance: instance, path: path, limit: limit).run(into: &out)
  }

  /// Follows `reference` for `instance` at `path`, unless it is already being followed there.
  func evaluate(
    _ instance: JSONValue, reference: String, at path: String, into out: inout [SchemaViolation], limit: Int
  ) {
    let key = reference + "\u{0}" + path
    guard !activeReferences.contains(key) else { return }
    guard let target = document.resolve(reference) else {
      out.append(SchemaViolation(path: path, expected: "a schema at \(reference)", actual: "unresolvable $ref"))
      return
    }
    activeReferences.insert(key)
    evaluate(instance, target, at: path, into: &out, limit: limit)
    activeReferences.remove(key)
  }

  func pattern(_ source: String) -> Regex<AnyRegexOutput>? {
    if let cached = patterns[source] { return cached }
    let compiled = try? Regex(source)
    patterns[source] = compiled
    return compiled
  }
}

/// The keywords of one schema object applied to one instance.
private struct Keywords {
  let evaluation: Evaluation
  let schema: JSONObject
  let instance: JSONValue
  let path: String
  let limit: Int

  private func add(_ out: inout [SchemaViolation], _ expected: String, _ actual: String, at where_: String? = nil) {
    guard out.count < limit else { return }
    out.append(
      SchemaViolation(
        path: where_ ?? path, expected: JSONValue.truncated(expected, 80), actual: JSONValue.truncated(actual, 80)))
  }

  func run(into out: inout [SchemaViolation]) {
    let nullable = schema["nullable"]?.boolValue == true
    if nullable, instance == .null { return }

    if let reference = schema["$ref"]?.stringValue {
      evaluation.evaluate(instance, reference: reference, at: path, into: &out, limit: limit)
    }
    guard checkType(nullable: nullable, into: &out) else { return }

    if let members = schema["enum"]?.arrayValue, !members.contains(instance) {
      add(&out, "one of [" + members.map(\.shortText).joined(separator: ", ") + "]", instance.summary)
    }
    if let constant = schema["const"], constant != instance {
      add(&out, "const \(constant.shortText)", instance.summary)
    }

    switch instance {
    case .string(let text): checkString(text, into: &out)
    case .number(let number): checkNumber(number, into: &out)
    case .object(let object): checkObject(object, into: &out)
    case .array(let items): checkArray(items, into: &out)
    case .null, .bool: break
    }
    checkComposition(into: &out)
  }

  // MARK: type

  /// False when the type is wrong (the other keywords would only repeat it).
  private func checkType(nullable: Bool, into out: inout [SchemaViolation]) -> Bool {
    guard let type = schema["type"] else { return true }
    var types = type.stringValue.map { [$0] } ?? type.arrayValue?.compactMap(\.stringValue) ?? []
    guard !types.isEmpty else { return true }
    if nullable, !types.contains("null") { types.append("null") }
    if types.contains(where: { Self.matches(instance, type: $0) }) { return true }
    var expected = types.joined(separator: " or ")
    if let format = schema["format"]?.stringValue { expected += " (format \(format))" }
    add(&out, expected, instance.summary)
    return false
  }

  static func matches(_ instance: JSONValue, type: String) -> Bool {
    switch (type, instance) {
    case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
      ("number", .number):
      true
    case ("integer", .number(let number)): number.isInteger
    default: false
    }
  }

  // MARK: strings

  private func checkString(_ text: String, into out: inout [SchemaViolation]) {
    // Lengths count code points, as JSON Schema says (an é or a 👍 is one).
    let length = text.unicodeScalars.count
    if let minimum = schema["minLength"]?.numberValue?.int, length < minimum {
      add(&out, "at least \(minimum) character\(minimum == 1 ? "" : "s")", "\(length): \(instance.summary)")
    }
    if let maximum = schema["maxLength"]?.numberValue?.int, length > maximum {
      add(&out, "at most \(maximum) character\(maximum == 1 ? "" : "s")", "\(length): \(instance.summary)")
    }
    if let source = schema["pattern"]?.stringValue, let regex = evaluation.pattern(source) {
      // JSON Schema's pattern searches (it is not anchored unless the pattern says so).
      if !text.contains(regex) {
        add(&out, "matches /\(source)/", instance.summary)
      }
    }
    if let format = schema["format"]?.stringValue, let valid = Formats.check(format, text), !valid {
      add(&out, "string (format \(format))", instance.summary)
    }
  }

  // MARK: numbers

  private func checkNumber(_ number: JSONNumber, into out: inout [SchemaViolation]) {
    let minimum = schema["minimum"]?.numberValue
    let maximum = schema["maximum"]?.numberValue
    // OpenAPI 3.0: exclusiveMinimum/exclusiveMaximum are booleans that modify minimum/maximum.
    let exclusiveMinimumFlag = schema["exclusiveMinimum"]?.boolValue == true
    let exclusiveMaximumFlag = schema["exclusiveMaximum"]?.boolValue == true
    let actual = instance.summary
    if let minimum {
      if exclusiveMinimumFlag, Self.compare(number, minimum) <= 0 {
        add(&out, "> \(minimum.literal)", actual)
      } else if !exclusiveMinimumFlag, Self.compare(number, minimum) < 0 {
        add(&out, ">= \(minimum.literal)", actual)
      }
    }
    if let maximum {
      if exclusiveMaximumFlag, Self.compare(number, maximum) >= 0 {
        add(&out, "< \(maximum.literal)", actual)
      } else if !exclusiveMaximumFlag, Self.compare(number, maximum) > 0 {
        add(&out, "<= \(maximum.literal)", actual)
      }
    }
    if let bound = schema["exclusiveMinimum"]?.numberValue, Self.compare(number, bound) <= 0 {
      add(&out, "> \(bound.literal)", actual)
    }
    if let bound = schema["exclusiveMaximum"]?.numberValue, Self.compare(number, bound) >= 0 {
      add(&out, "< \(bound.literal)", actual)
    }
    if let divisor = schema["multipleOf"]?.numberValue, !Self.isMultiple(number, of: divisor) {
      add(&out, "multiple of \(divisor.literal)", actual)
    }
  }

  /// -1, 0 or 1; exact for integers that fit, by Double otherwise (huge values are ±infinity).
  static func compare(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
    if let left = lhs.int, let right = rhs.int { return left < right ? -1 : (left == right ? 0 : 1) }
    if lhs.double < rhs.double { return -1 }
    if lhs.double > rhs.double { return 1 }
    return 0
  }

  static func isMultiple(_ number: JSONNumber, of divisor: JSONNumber) -> Bool {
    if let value = number.int, let step = divisor.int, step > 0 {
      return value.remainderReportingOverflow(dividingBy: step).partialValue == 0
    }
    guard divisor.double > 0, divisor.double.isFinite, number.double.isFinite else { return true }
    let quotient = number.double / divisor.double
    guard quotient.isFinite else { return true }
    return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
  }

  // MARK: objects

  private func checkObject(_ object: JSONObject, into out: inout [SchemaViolation]) {
    if let required = schema["required"]?.arrayValue {
      for name in required.compactMap(\.stringValue) where object[name] == nil {
        add(&out, "required", "missing", at: JSONPath.appending(path, key: name))
      }
    }
    let properties = schema["properties"]?.objectValue ?? JSONObject()
    let patternProperties = schema["patternProperties"]?.objectValue ?? JSONObject()
    let additional = schema["additionalProperties"]
    for (key, value) in object.entries {
      guard out.count < limit else { return }
      let memberPath = JSONPath.appending(path, key: key)
      var matched = false
      if let propertySchema = properties[key] {
        matched = true
        evaluation.evaluate(value, propertySchema, at: memberPath, into: &out, limit: limit)
      }
      for (source, propertySchema) in patternProperties.entries {
        if let regex = evaluation.pattern(source),
          key.contains(regex)
        {
          matched = true
          evaluation.evaluate(value, propertySchema, at: memberPath, into: &out, limit: limit)
        }
      }
      if !matched, let additional {
        if additional == .bool(false) {
          add(
            &out, "no property \(JSONValue.truncated(key, 30)) (additionalProperties false)", value.summary,
            at: memberPath)
        } else {
          evaluation.evaluate(value, additional, at: memberPath, into: &out, limit: limit)
        }
      }
    }
    if let minimum = schema["minProperties"]?.numberValue?.int, object.count < minimum {
      add(&out, "at least \(minimum) properties", "\(object.count)")
    }
    if let maximum = schema["maxProperties"]?.numberValue?.int, object.count > maximum {
      add(&out, "at most \(maximum) properties", "\(object.count)")
    }
  }

  // MARK: arrays

  private func checkArray(_ items: [JSONValue], into out: inout [SchemaViolation]) {
    var prefixCount = 0
    // 2020-12 prefixItems, or the older array form of items.
    if let prefix = schema["prefixItems"]?.arrayValue ?? schema["items"]?.arrayValue {
      prefixCount = prefix.count
      for (index, (item, itemSchema)) in zip(items, prefix).enumerated() {
        evaluation.evaluate(item, itemSchema, at: JSONPath.appending(path, index: index), into: &out, limit: limit)
      }
    }
    if let itemSchema = schema["items"], itemSchema.arrayValue == nil {
      for (index, item) in items.enumerated().dropFirst(schema["prefixItems"] == nil ? 0 : prefixCount) {
        guard out.count < limit else { break }
        evaluation.evaluate(item, itemSchema, at: JSONPath.appending(path, index: index), into: &out, limit: limit)
      }
    }
    if let minimum = schema["minItems"]?.numberValue?.int, items.count < minimum {
      add(&out, "at least \(minimum) item\(minimum == 1 ? "" : "s")", instance.summary)
    }
    if let maximum = schema["maxItems"]?.numberValue?.int, items.count > maximum {
      add(&out, "at most \(maximum) item\(maximum == 1 ? "" : "s")", instance.summary)
    }
    if schema["uniqueItems"]?.boolValue == true {
      duplicates: for first in items.indices {
        for second in items.indices where second > first && items[first] == items[second] {
          add(&out, "unique items", "items \(first) and \(second) are equal")
          break duplicates
        }
      }
    }
    if let contains = schema["contains"], !items.contains(where: { evaluation.isValid($0, contains, at: path) }) {
      add(&out, "an item matching contains", instance.summary)
    }
  }

  // MARK: allOf, anyOf, oneOf, not, discriminator

  private func checkComposition(into out: inout [SchemaViolation]) {
    if let all = schema["allOf"]?.arrayValue {
      for branch in all { evaluation.evaluate(instance, branch, at: path, into: &out, limit: limit) }
    }
    let oneOf = schema["oneOf"]?.arrayValue
    let anyOf = schema["anyOf"]?.arrayValue
    if let discriminator = schema["discriminator"]?.objectValue, let branches = oneOf ?? anyOf,
      let property = discriminator["propertyName"]?.stringValue, case .object(let object) = instance
    {
      checkDiscriminator(object, property: property, discriminator: discriminator, branches: branches, into: &out)
    } else {
      if let branches = anyOf, !branches.contains(where: { evaluation.isValid(instance, $0, at: path) }) {
        add(&out, "any of [\(Self.names(branches))]", instance.summary + " (matches none)")
      }
      if let branches = oneOf {
        let matching = branches.indices.filter { evaluation.isValid(instance, branches[$0], at: path) }.prefix(2)
        if matching.isEmpty {
          add(&out, "one of [\(Self.names(branches))]", instance.summary + " (matches none)")
        } else if matching.count > 1 {
          let both = matching.map { Self.name(branches[$0], index: $0) }.joined(separator: " and ")
          add(&out, "exactly one of [\(Self.names(branches))]", "matches \(both)")
        }
      }
    }
    if let negated = schema["not"], evaluation.isValid(instance, negated, at: path) {
      add(&out, "not \(Self.name(negated, index: 0))", instance.summary)
    }
  }

  /// The branch the discriminator names is checked, and its findings reported.
  private func checkDiscriminator(
    _ object: JSONObject, property: String, discriminator: JSONObject, branches: [JSONValue],
    into out: inout [SchemaViolation]
  ) {
    let propertyPath = JSONPath.appending(path, key: property)
    var known: [(String, String)] = []  // discriminator value, reference
    for (value, target) in discriminator["mapping"]?.objectValue?.entries ?? [] {
      guard let target = target.stringValue else { continue }
      known.append((value, target.hasPrefix("#") ? target : "#/components/schemas/\(target)"))
    }
    // Without a mapping entry, a branch's schema name is its discriminator value.
    for branch in branches {
      if let reference = branch["$ref"]?.stringValue, let name = reference.split(separator: "/").last,
        !known.contains(where: { $0.0 == String(name) })
      {
        known.append((String(name), reference))
      }
    }
    guard let value = object[property] else {
      add(&out, "required (discriminator)", "missing", at: propertyPath)
      return
    }
    guard let name = value.stringValue, let reference = known.first(where: { $0.0 == name })?.1 else {
      add(&out, "one of [" + known.map(\.0).joined(separator: ", ") + "]", value.summary, at: propertyPath)
      return
    }
    evaluation.evaluate(instance, reference: reference, at: path, into: &out, limit: limit)
  }

  static func name(_ branch: JSONValue, index: Int) -> String {
    if let reference = branch["$ref"]?.stringValue, let last = reference.split(separator: "/").last {
      return String(last)
    }
    if let title = branch["title"]?.stringValue { return title }
    if let type = branch["type"]?.stringValue { return type }
    return "#\(index)"
  }

  static func names(_ branches: [JSONValue]) -> String {
    branches.enumerated().map { name($0.element, index: $0.offset) }.joined(separator: ", ")
  }
}
