import DeckConfig
import DeckSupport
import TestFixtures
import Testing

@Suite("Services declared by modules")
struct ServiceCatalogTests {
  init() { FeatureServices.register() }

  @Test("two modules that declare one service are joined: summaries once each, URLs kept")
  func declarationsOfOneNameAreJoined() throws {
    // The pure join (registering these would add them to every other test's catalog).
    let first = Service("a", summary: "search", defaultURLs: ["production": "https://a.example"])
    let second = Service(
      "a", summary: "items, invites", defaultURLs: ["production": "https://other.example", "dev": "https://d"])
    let other = Service("b", summary: "other")
    let catalog = ServiceCatalog.joined(ServiceCatalog.joined([.auth, first], [other, second]), [second, first])
    #expect(catalog.map(\.rawValue) == ["auth", "a", "b"])
    #expect(catalog[1].summary == "search, items, invites")
    #expect(catalog[1].defaultURLs == ["production": "https://a.example", "dev": "https://d"])
  }

  @Test("a service may get tokens only when every module that declares it says so")
  func tokensOnlyWhereAllowed() throws {
    let joined = ServiceCatalog.joined([Service("b", summary: "x")], [Service("b", summary: "y", sendsToken: false)])
    #expect(joined.map(\.sendsToken) == [false])
    #expect(joined.map(\.summary) == ["x, y"])
    #expect(Service.geocoder.sendsToken == false)
    #expect(Service.auth.sendsToken)
  }

  @Test("the built-in environments take each service's declared URLs; local points all at the sandbox")
  func builtinEnvironmentsComeFromDeclarations() throws {
    let production = try #require(BuiltinEnvironments.named("production"))
    #expect(production.urls[.flyr] == "https://flyrpro.app")
    #expect(production.urls[.nudge] == "https://api.nudge.starshape.in")
    #expect(production.urls[.geocoder] == "https://geocoding.geo.census.gov")
    #expect(production.urls[.kiosk] == nil)
    let local = try #require(BuiltinEnvironments.named("local"))
    for service in Service.allCases { #expect(local.urls[service] == BuiltinEnvironments.localURL) }
    #expect(Service.allCases.first == .auth)
  }

  @Test("a config file that names a service no module declares is refused, with the known ones")
  func unknownServiceIsRefused() throws {
    let error = #expect(throws: DeckError.self) {
      try ConfigFile.parse("environments:\n  mine:\n    flyrr: https://x.example\n", path: "config.yml")
    }
    #expect(error?.message.contains("unknown key \"flyrr\"") == true, "\(String(describing: error))")
    #expect(error?.message.contains("known: auth, flyr, kiosk") == true, "\(String(describing: error))")
  }
}
