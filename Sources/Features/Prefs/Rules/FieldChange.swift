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
  public var description: String { "\(field): \(old ?? "(unset)") → \(new ?? "(unset)")" }
}
