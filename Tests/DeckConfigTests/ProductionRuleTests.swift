import DeckConfig
import DeckSupport
import TestFixtures
import Testing

/// Issue 44, finding 4: one rule for "is this environment production" (`ProductionRule`).
@Suite("Production environments")
struct ProductionRuleTests {
  init() { FeatureServices.register() }

  func resolver(_ environments: [(String, ConfigFile.Entry)], variables: [String: String] = [:])
    -> EnvironmentResolver
  {
    EnvironmentResolver(
      file: ConfigFile(environments: environments.map { (name: $0.0, entry: $0.1) }), processEnvironment: variables)
  }

  @Test func aCopyOfProductionsURLsIsProduction() throws {
    let production = try #require(BuiltinEnvironments.named("production"))
    let copy = resolver([("copy", .init(urls: production.urls))])
    let definition = try #require(copy.definition("copy"))
    #expect(definition.isProduction)
    #expect(definition.productionReason?.contains("production environment \"production\"") == true)
    // One service left at production is enough, whatever the URL's spelling.
    let partial = resolver([
      ("eu", .init(urls: [.flyr: "https://staging.flyrpro.app", .nudge: "https://API.nudge.starshape.in:443/v1"]))
    ])
    #expect(partial.definition("eu")?.isProduction == true)
    #expect(partial.definitions.first { $0.name == "eu" }?.isProduction == true, "env list sees the same")
    #expect(
      partial.definition("eu")?.productionReason
        == "nudge is at https://api.nudge.starshape.in:443, as nudge is in production environment \"production\"")
  }

  @Test func anotherSchemeOrPortIsAnotherOrigin() throws {
    let other = resolver([
      ("a", .init(urls: [.flyr: "http://flyrpro.app"], allowInsecureHTTP: true)),
      ("b", .init(urls: [.flyr: "https://flyrpro.app:8443"])),
    ])
    #expect(other.definition("a")?.isProduction == false)
    #expect(other.definition("b")?.isProduction == false)
  }

  @Test func anEnvironmentMarkedProductionMakesItsTwinsProduction() throws {
    let resolver = resolver([
      ("prod-eu", .init(urls: [.kiosk: "https://kiosk.eu.example.com"], isProduction: true)),
      ("twin", .init(urls: [.kiosk: "https://kiosk.eu.example.com/"], isSandbox: true)),
      ("lab", .init(urls: [.kiosk: "https://kiosk.lab.example.com"], isSandbox: true)),
    ])
    let twin = try #require(resolver.definition("twin"))
    #expect(twin.isProduction)
    #expect(!twin.isSandbox, "a production environment is never a sandbox")
    #expect(twin.productionReason?.contains("\"prod-eu\"") == true)
    #expect(resolver.definition("prod-eu")?.productionReason?.contains("production: true") == true)
    #expect(resolver.definition("lab")?.isProduction == false)
    #expect(resolver.definition("lab")?.isSandbox == true)
  }

  @Test func publicServicesAndTheBuiltinsDoNotCount() throws {
    let resolver = resolver([("geo", .init(urls: [.geocoder: "https://geocoding.geo.census.gov"]))])
    for name in ["geo", "dev", "staging", "local", "sandbox", "simulator"] {
      #expect(resolver.definition(name)?.isProduction == false, "\(name)")
    }
    #expect(resolver.definition("production")?.isProduction == true)
  }

  @Test func theBuiltinProductionStaysProduction() throws {
    let resolver = resolver([("production", .init(isSandbox: true, isProduction: false))])
    let production = try #require(resolver.definition("production"))
    #expect(production.isProduction)
    #expect(!production.isSandbox)
  }

  @Test func anOverrideAtAProductionOriginMakesTheEnvironmentProduction() throws {
    let resolved = try resolver([], variables: ["DECK_FLYR_URL": "https://flyrpro.app"]).resolve(flag: "staging")
    #expect(resolved.definition.isProduction)
    let plain = try resolver([]).resolve(flag: "staging")
    #expect(!plain.definition.isProduction)
  }
}
