import DeckValues

/// How strictly a JSON document's keys are checked beyond `read(_:)`, which ignores unknown keys
/// and takes defaults for missing ones (the leniency stored data gets: the spec's fallback).
public enum ShapeCheck: Sendable, Equatable {
  /// Unknown keys are problems: in an import file or an edited document a misspelt key must not
  /// vanish silently.
  case noUnknownKeys
  /// Unknown keys, and keys the model always has that are missing or null, are problems: a
  /// complete value, as the recruiting API's POST bodies are (its contract lists them as required).
  case complete
}

extension FieldRecord {
  /// The problems of `json`'s keys that `read` does not report (see `ShapeCheck`), each naming
  /// the key: `gpaa: unknown player field; did you mean gpa?`, `enableDailyDigest: missing; use
  /// true or false`, `widgets.foo: unknown dashboard item; …`.
  public static func shapeIssues(_ json: JSONValue, _ check: ShapeCheck) -> [ValidationIssue] {
    guard case .object(let object) = json else { return [] }  // `read` names a non-object
    let what = category.entryNoun
    var issues: [ValidationIssue] = []
    let topKeys = fields.filter { $0.spec.container == nil }.map(\.spec.key)
    let containers = fields.compactMap(\.spec.container).reduce(into: [String]()) { list, name in
      if !list.contains(name) { list.append(name) }
    }
    for key in object.keys.sorted() where !topKeys.contains(key) && !containers.contains(key) {
      issues.append(NameMatching.unknown(key, what: what, candidates: topKeys + containers))
    }
    for container in containers {
      let inner = fields.filter { $0.spec.container == container }.map(\.spec.key)
      switch object[container] {
      case .object(let values):
        for key in values.keys.sorted() where !inner.contains(key) {
          issues.append(NameMatching.unknown(key, what: what, candidates: inner, within: container))
        }
      case nil, .null:
        if check == .complete { issues.append(.missing(container, allowed: "{\"name\": true, …}")) }
      default:
        break  // `read` names a container that is not an object
      }
    }
    guard check == .complete else { return issues }
    for field in fields where !field.spec.isOptional {
      var source = object
      if let container = field.spec.container {
        guard case .object(let values) = object[container] else { continue }
        source = values
      }
      let name = field.spec.container.map { "\($0).\(field.spec.key)" } ?? field.spec.key
      switch source[field.spec.key] {
      case nil: issues.append(.missing(name, allowed: field.spec.allowed))
      case .null?: issues.append(.wrongType(name, "null", expected: field.spec.kind.noun, allowed: field.spec.allowed))
      default: break
      }
    }
    return issues
  }

  /// `self` with a JSON merge patch (RFC 7396) applied, as `PATCH /api/user/preferences/player-details`
  /// takes it: each key present is set to its value, `null` clears an optional field; absent keys
  /// are kept. The patch's keys and types are checked first (unknown keys named), then the result
  /// as a whole; nothing is applied if anything is wrong.
  public func patched(with patch: JSONValue) throws(Validation) -> Self {
    guard case .object(let object) = patch else { throw Validation([Self.notAnObject(patch)]) }
    var issues = Self.shapeIssues(patch, .noUnknownKeys)
    var updated = self
    for field in Self.fields where field.spec.container == nil {
      guard let raw = object[field.spec.key] else { continue }
      switch field.spec.coerce(raw) {
      case .success(.null) where !field.spec.isOptional: issues.append(field.spec.clearingIssue)
      case .success(let value): field.write(&updated, value)
      case .failure(let issue): issues.append(issue)
      }
    }
    try Validation(issues).check()
    try updated.validate().check()
    return updated
  }

  /// The merge patch that turns `self` into `new`: each field that differs, with its new value or
  /// `null` where `new` has none. `patched(with:)` of it gives `new`.
  public func mergePatch(to new: Self) -> JSONValue {
    var object = JSONObject()
    for field in Self.fields where field.spec.container == nil {
      let updated = field.read(new)
      if field.read(self) != updated { object[field.spec.key] = updated }
    }
    return .object(object)
  }
}

extension SchoolPreferences {
  /// The most preferences a list may hold, and the highest priority a request may give.
  public static let maximumCount = 1000

  static let topKeys = ["preferences", "templateUsed", "lastUpdated"]
  static let preferenceKeys = ["id", "category", "type", "value", "priority", "isDealbreaker"]

  /// The problems of `json`'s keys that `read` does not report (see `ShapeCheck`); `.complete`
  /// also requires `preferences` and each preference's `category` and `isDealbreaker`, and keeps
  /// the list to `maximumCount` preferences with priorities 1–`maximumCount`.
  public static func shapeIssues(_ json: JSONValue, _ check: ShapeCheck) -> [ValidationIssue] {
    guard case .object(let object) = json else { return [] }
    var issues: [ValidationIssue] = []
    for key in object.keys.sorted() where !topKeys.contains(key) {
      issues.append(NameMatching.unknown(key, what: "school preferences field", candidates: topKeys))
    }
    guard case .array(let items) = object["preferences"] else {
      if check == .complete && [nil, .null].contains(object["preferences"]) {
        issues.append(.missing("preferences", allowed: "a list of preferences"))
      }
      return issues
    }
    if check == .complete && items.count > maximumCount {
      issues.append(
        .invalid(
          "preferences", "\(items.count) preferences", "are too many", allowed: "at most \(maximumCount)"))
    }
    for (offset, item) in items.enumerated() {
      guard case .object(let preference) = item else { continue }
      let position = offset + 1
      for key in preference.keys.sorted() where !preferenceKeys.contains(key) {
        issues.append(
          NameMatching.unknown(
            key, what: "school preference field", candidates: preferenceKeys, within: "preference \(position)"))
      }
      guard check == .complete else { continue }
      for (key, allowed) in [
        ("category", FieldRule.orList(PreferenceCategory.allCases.map(\.rawValue))), ("isDealbreaker", "true or false"),
      ] {
        switch preference[key] {
        case nil: issues.append(.missing(SchoolPreference.field(position, key), allowed: allowed))
        case .null?:
          issues.append(.wrongType(SchoolPreference.field(position, key), "null", expected: allowed, allowed: allowed))
        default: break
        }
      }
      if let raw = preference["priority"], let priority = FieldKind.int.coerce(raw)?.wholeNumber,
        !(1...maximumCount).contains(priority)
      {
        issues.append(
          .outOfRange(SchoolPreference.field(position, "priority"), raw.literal, allowed: "1–\(maximumCount)"))
      }
    }
    return issues
  }

  /// The preferences in priority order (stored order breaking ties), numbered 1…n: what the
  /// recruiting API stores, whatever priorities a request gave.
  public func renumberedByPriority() -> SchoolPreferences { renumbered(ordered) }

  /// A problem for each preference whose id an earlier one has.
  public var duplicateIDIssues: [ValidationIssue] {
    var positions: [String: Int] = [:]
    var issues: [ValidationIssue] = []
    for (offset, preference) in preferences.enumerated() {
      if let first = positions[preference.id] {
        issues.append(
          .invalid(
            SchoolPreference.field(offset + 1, "id"), JSONValue.quoted(preference.id),
            "is also the id of preference \(first)", allowed: "a unique id"))
      } else {
        positions[preference.id] = offset + 1
      }
    }
    return issues
  }
}

/// What the recruiting API makes of a request body for one category.
public enum PrefsRequest: Sendable, Equatable {
  /// The value to store.
  case valid(PrefsValue)
  /// Wrongly typed, unknown, missing or invalid fields (HTTP 400).
  case invalid(Validation)
  /// School preferences whose ids repeat (HTTP 409): each id names one preference.
  case conflict(Validation)

  /// A complete value of `category` as a POST body: keys and types checked (`ShapeCheck.complete`),
  /// school priorities renumbered 1…n in priority order, then validated as it is: no normalising,
  /// so what is stored is exactly what was sent (clients normalise before sending).
  public static func read(_ json: JSONValue, as category: PrefsCategory) -> PrefsRequest {
    let (value, issues) = PrefsValue.read(json, as: category)
    let shape = PrefsValue.shapeIssues(json, as: category, .complete)
    guard issues.isEmpty && shape.isEmpty else { return .invalid(Validation(issues + shape)) }
    guard case .school(let school) = value else {
      let validation = value.validate()
      return validation.isValid ? .valid(value) : .invalid(validation)
    }
    let duplicates = school.duplicateIDIssues
    guard duplicates.isEmpty else { return .conflict(Validation(duplicates)) }
    // Checked in the order sent (so that "preference 2" is the request's second), stored in
    // priority order.
    let validation = school.renumbered(school.preferences).validate()
    return validation.isValid ? .valid(.school(school.renumberedByPriority())) : .invalid(validation)
  }
}

extension PrefsValue {
  /// See `PrefsModel.shapeIssues`.
  public static func shapeIssues(_ json: JSONValue, as category: PrefsCategory, _ check: ShapeCheck)
    -> [ValidationIssue]
  {
    category.modelType.shapeIssues(json, check)
  }
}
