import DeckValues

/// One `key=value` of `deck prefs set CATEGORY key=value …`, resolved against the catalog.
public struct Assignment: Sendable, Equatable {
  /// The catalog key.
  public var key: String
  /// A value of the field's kind; `.null` clears an optional field.
  public var value: JSONValue

  public init(key: String, value: JSONValue) {
    self.key = key
    self.value = value
  }
}

/// `key=value` assignments on a category with a catalog (player, notifications, dashboard, location).
extension FieldRecord {
  /// `text` split at its first `=`: the key resolved through the catalog (unknown keys suggest the
  /// nearest) and the value read for the field (see `FieldSpec.parse`: numbers, booleans as
  /// true/false/yes/no/on/off/1/0, comma-separated lists, `5'11"` for height); `key=` clears an
  /// optional field and is refused for the others.
  public static func assignment(_ text: String) throws(Validation) -> Assignment {
    guard let equals = text.firstIndex(of: "=") else {
      throw Validation([
        ValidationIssue(
          field: text.trimmed, value: "", problem: "has no \"=\"", advice: "use key=value, or key= to clear",
          allowed: "key=value")
      ])
    }
    let spec = try field(named: String(text[..<equals])).spec
    switch spec.parse(String(text[text.index(after: equals)...])) {
    case .success(let value): return Assignment(key: spec.key, value: value)
    case .failure(let issue): throw Validation([issue])
    }
  }

  /// The value with `assignments` (`key=value` texts) applied, normalised and validated as a whole,
  /// and what changed. Every problem of every assignment is reported together (a value that
  /// does not read and another out of range, both); nothing is applied if there is any.
  public func applying(_ assignments: [String]) throws(Validation) -> (value: Self, changes: [FieldChange]) {
    var parsed: [Assignment] = []
    var issues: [ValidationIssue] = []
    for text in assignments {
      do { parsed.append(try Self.assignment(text)) } catch { issues += error.issues }
    }
    // The assignments that read are applied and checked too, so that their problems are named
    // in the same answer.
    do {
      let result = try applying(parsed)
      if issues.isEmpty { return result }
    } catch {
      issues += error.issues
    }
    throw Validation(issues)
  }

  /// The value with `assignments` applied, normalised and validated as a whole, and what changed.
  /// A key may be set once per call. A nested field (`FieldSpec.parent`) may only be set while its
  /// parent toggle is on after the change; see `NotificationSettings`.
  public func applying(_ assignments: [Assignment]) throws(Validation) -> (value: Self, changes: [FieldChange]) {
    var issues: [ValidationIssue] = []
    var updated = self
    var seen: Set<String> = []
    var nested: [FieldSpec] = []
    for assignment in assignments {
      let field: Field<Self>
      do { field = try Self.field(named: assignment.key) } catch {
        issues += error.issues
        continue
      }
      guard seen.insert(field.spec.key).inserted else {
        issues.append(
          ValidationIssue(
            field: field.spec.key, value: "", problem: "is set more than once", advice: "set each key once",
            allowed: ""))
        continue
      }
      if field.spec.parent != nil { nested.append(field.spec) }
      switch field.spec.coerce(assignment.value) {
      case .success(.null) where !field.spec.isOptional: issues.append(field.spec.clearingIssue)
      case .success(let value): field.write(&updated, value)
      case .failure(let issue): issues.append(issue)
      }
    }
    updated = updated.normalized()
    issues += updated.validate().issues
    for spec in nested {
      guard let parent = spec.parent, updated[parent] == .bool(false) else { continue }
      issues.append(
        ValidationIssue(
          field: spec.key, value: "", problem: "has no effect while \(parent) is off",
          advice: "set \(parent)=true in the same command", allowed: "\(parent)=true"))
    }
    try Validation(issues).check()
    return (updated, changes(to: updated))
  }
}
