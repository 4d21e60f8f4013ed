/// The 50 US states and DC by postal code: what `schoolState`, location `state` and the
/// `preferred_states` school preference accept.
public enum USStates {
  public static let codes: [String] = [
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
    "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC",
    "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
  ]

  static let codeSet = Set(codes)

  public static func contains(_ code: String) -> Bool { codeSet.contains(code) }
}
