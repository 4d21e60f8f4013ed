/// The industries onboarding accepts (workspace-onboarding.md, section 3).
public enum Industry: String, CaseIterable, Sendable, Codable {
  case realEstate = "Real Estate"
  case logistics = "Logistics"
  case sales = "Sales"
  case pestControl = "Pest Control"
  case hvac = "HVAC"
  case insurance = "Insurance"
  case solar = "Solar"
  case other = "Other"

  /// Matches an industry without regard to case, spacing, `-` or `_`: "real estate",
  /// "REAL-ESTATE" and "real_estate" are all `Real Estate`.
  public init?(matching text: String) {
    func key(_ value: String) -> String {
      value.lowercased().filter { $0.isLetter || $0.isNumber }
    }
    let wanted = key(text)
    guard let match = Industry.allCases.first(where: { key($0.rawValue) == wanted }) else { return nil }
    self = match
  }

  /// The only industry that has a brokerage.
  public var hasBrokerage: Bool { self == .realEstate }
}
