import DeckConfig

/// The services the feature modules declare, as fixtures: the core's tests link no feature,
/// but its config, environments and token rules are about services. The declarations are the
/// features' own (CommandTests' registry test checks the real ones agree with these names).
extension Service {
  public static let flyr = Service(
    "flyr", summary: "brokerage, workspace, onboarding, invites, billing, access",
    defaultURLs: ["production": "https://flyrpro.app"])
  public static let kiosk = Service("kiosk", summary: "review kiosk")
  public static let nudge = Service(
    "nudge", summary: "mbti quiz",
    defaultURLs: [
      "dev": "https://api-dev.nudge.starshape.in", "staging": "https://api-staging.nudge.starshape.in",
      "production": "https://api.nudge.starshape.in",
    ])
  public static let recruiting = Service("recruiting", summary: "preferences")
  public static let geocoder = Service(
    "geocoder", summary: "address geocoding (US Census Bureau geocoder)",
    defaultURLs: Dictionary(
      uniqueKeysWithValues: BuiltinEnvironments.remoteNames.map { ($0, "https://geocoding.geo.census.gov") }),
    sendsToken: false)
}

public enum FeatureServices {
  /// Makes the fixtures known, as registering deck's modules does (registering only adds).
  public static func register() {
    ServiceCatalog.register([.flyr, .kiosk, .nudge, .recruiting, .geocoder])
  }
}
