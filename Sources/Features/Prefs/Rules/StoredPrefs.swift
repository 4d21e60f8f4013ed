import DeckValues
import FoundationEssentials

/// A category's value read from storage, and what was wrong with what was stored.
public struct StoredPrefs<Model: PrefsModel>: Sendable, Equatable {
  public var value: Model
  /// Empty when the stored value was used; otherwise one sentence naming the problems.
  public var warnings: [String]

  public init(value: Model, warnings: [String] = []) {
    self.value = value
    self.warnings = warnings
  }
}

extension PrefsModel {
  /// A stored JSON blob (the `data` column) as this category's value. Nothing stored (nil or JSON
  /// `null`) gives the defaults without a warning. A blob that is not JSON, not an object, has
  /// wrongly typed fields or fails validation gives the defaults and a warning naming every problem,
  /// e.g. `stored notifications are invalid (followUpReminderDays: 500 is out of range; allowed
  /// 1–90); showing the defaults`. Unknown keys are ignored. The value returned is normalised.
  public static func decodeStored(_ data: Data?) -> StoredPrefs<Self> {
    func fallback(_ problem: String) -> StoredPrefs<Self> {
      StoredPrefs(value: defaults, warnings: ["stored \(category.noun) \(problem); showing the defaults"])
    }
    guard let data else { return StoredPrefs(value: defaults) }
    guard let json = JSONValue.parse(data) else { return fallback("are not valid JSON") }
    switch json {
    case .null: return StoredPrefs(value: defaults)
    case .object: break
    default: return fallback("are not a JSON object (found \(json.kindDescription))")
    }
    // Every problem is named (at most `Validation.shownLimit`, then how many more).
    let (value, issues) = readAll(json)
    guard issues.isEmpty else { return fallback("are invalid (\(Validation(issues).cappedSummary))") }
    return StoredPrefs(value: value)
  }
}
