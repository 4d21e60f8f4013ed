/// A backend service. An environment maps each one to a base URL.
public enum Service: String, CaseIterable, Sendable, Codable, Comparable {
  /// FLYR-PRO: brokerage, workspace, onboarding, invites, billing, access.
  case flyr
  /// The in-store review kiosk.
  case kiosk
  /// Recruiting: preferences.
  case recruiting
  /// Nudge: the MBTI quiz.
  case nudge
  /// Supabase-compatible auth.
  case auth
  /// Address geocoding (the US Census Bureau's one-line-address geocoder): home location
  /// coordinates. Public, no key: deck never sends it a token.
  case geocoder

  public var summary: String {
    switch self {
    case .flyr: "brokerage, workspace, onboarding, invites, billing, access"
    case .kiosk: "review kiosk"
    case .recruiting: "preferences"
    case .nudge: "mbti quiz"
    case .auth: "Supabase-compatible auth"
    case .geocoder: "address geocoding (US Census Bureau geocoder)"
    }
  }

  /// The environment variable that overrides this service's URL, e.g. `DECK_FLYR_URL`.
  public var overrideVariable: String { "DECK_\(rawValue.uppercased())_URL" }

  public static func < (lhs: Service, rhs: Service) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
