import DeckApp
import DeckConfig
import DeckCore
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
    let flyr = Registry.modules.services.first { $0.rawValue == "flyr" }
    #expect(Registry.modules.modules(using: flyr ?? .auth) == ["brokerage", "workspace"])
  }
}
