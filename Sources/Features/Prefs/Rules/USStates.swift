/// The 50 US states and DC by postal code: what `schoolState`, location `state` and the
/// `preferred_states` school preference accept.
public enum USStates {
  public static let codes: [String] = [
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
    "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC",
    "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
  ]

  /// The codes as code points: Swift compares strings by canonical equivalence, which would take
  /// `A\u{212A}` (a Kelvin sign) for `AK`; stored values must be the exact code.
  static let codeSet = Set(codes.map { Array($0.unicodeScalars) })

  /// Whether `code` is exactly one of the codes (upper case, two ASCII letters).
  public static func contains(_ code: String) -> Bool { codeSet.contains(Array(code.unicodeScalars)) }
}
