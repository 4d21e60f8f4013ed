import DeckApp
import DeckConfig
import DeckCore
import TestSupport
import Testing

@Suite("Services the modules declare")
struct RegistryServicesTests {
  @Test("modules that declare one service agree on its URLs and on tokens, and every service has an owner")
  func declarationsAgree() {
    var seen: [String: Service] = [:]
    for module in Registry.modules.modules {
      for service in module.services {
        guard let earlier = seen[service.rawValue] else {
          seen[service.rawValue] = service
          continue
        }
        #expect(
          earlier.defaultURLs == service.defaultURLs, "\(module.name) and an earlier module disagree on \(service)")
        #expect(earlier.sendsToken == service.sendsToken, "\(module.name): \(service)")
      }
    }
    #expect(Registry.modules.services.map(\.rawValue) == ["auth", "flyr", "kiosk", "nudge", "recruiting", "geocoder"])
    for service in Registry.modules.services {
      #expect(!Registry.modules.modules(using: service).isEmpty, "\(service) has no module")
    }
    // A registry names the modules that talk to a service, and only those.
    let fixture = Registry.assembled(features: [FixtureModule.self])
    #expect(fixture.modules(using: .fixture) == ["fixture"])
    #expect(fixture.services.map(\.rawValue) == ["auth", "fixture"])
  }
}
