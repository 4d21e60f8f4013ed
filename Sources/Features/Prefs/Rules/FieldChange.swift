import DeckValues

/// One difference between two values of a category: the field (JSON key, or the preference type for
/// school) and its old and new values as shown to users; nil means unset, added or removed.
/// Printed as "what changed" and written as history entries.
public struct FieldChange: Sendable, Equatable, Codable, CustomStringConvertible {
  public var field: String
  public var old: String?
  public var new: String?

  public init(field: String, old: String?, new: String?) {
    self.field = field
    self.old = old
    self.new = new
  }

  /// `field: old → new`, with `(unset)` for a missing side.
  public var description: String { "\(field): \(transition)" }

  /// `old → new`, with `(unset)` for a missing side.
  public var transition: String { "\(old ?? "(unset)") → \(new ?? "(unset)")" }
}

/// History entries (`/api/user/preferences/{category}/history`): what one entry may hold.
extension FieldChange {
  /// The longest field name an entry keeps, in code points.
  public static let maximumFieldLength = 200
  /// The longest old or new value an entry keeps, in code points.
  public static let maximumValueLength = 2000

  /// The change cut to what a history entry holds: a longer value ends in `…` at the limit.
  public func truncatedForHistory() -> FieldChange {
    func cut(_ text: String, _ limit: Int) -> String {
      let scalars = text.unicodeScalars
      guard scalars.count > limit else { return text }
      return String(String.UnicodeScalarView(scalars.prefix(limit - 1))) + "…"
    }
    return FieldChange(
      field: cut(field, Self.maximumFieldLength), old: old.map { cut($0, Self.maximumValueLength) },
      new: new.map { cut($0, Self.maximumValueLength) })
  }

  /// The problems of the change as a history entry: a field name of 1–200 code points that is not
  /// only white space, values of at most 2000 code points.
  public func historyIssues(position: Int) -> [ValidationIssue] {
    var issues: [ValidationIssue] = []
    let name = "changes \(position) field"
    let length = field.unicodeScalars.count
    if length == 0 || field.unicodeScalars.allSatisfy(TextFormat.isWhiteSpace) {
      issues.append(.invalid(name, JSONValue.quoted(field), "is blank", allowed: "the name of the field that changed"))
    } else if length > Self.maximumFieldLength {
      issues.append(
        .invalid(
          name, JSONValue.quoted(field), "is too long (\(length) characters)",
          allowed: "at most \(Self.maximumFieldLength) characters"))
    }
    for (part, value) in [("old", old), ("new", new)] {
      guard let value, value.unicodeScalars.count > Self.maximumValueLength else { continue }
      issues.append(
        .invalid(
          "changes \(position) \(part)", JSONValue.quoted(value),
          "is too long (\(value.unicodeScalars.count) characters)",
          allowed: "at most \(Self.maximumValueLength) characters"))
    }
    return issues
  }
}
