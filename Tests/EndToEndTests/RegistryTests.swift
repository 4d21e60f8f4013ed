import Foundation
import TestSupport
import Testing

@Suite("Modules register through the registry", .endToEndTimeLimit)
struct RegistryTests {
  @Test("a feature completes another feature's values through the provider the owner registered")
  func crossFeatureCompletion() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    // workspace onboard --brokerage completes brokerage names, a provider the brokerage module owns.
    let result = try deck.run(
      [
        "---completion", "workspace", "onboard", "--", "--brokerage", "3", "5", "deck", "workspace", "onboard",
        "--brokerage", "Compa",
      ],
      environment: ["SAP_SHELL": "bash"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Compass"), "\(result.stdout)")
  }

  @Test("env show names the modules behind each service, from their declarations")
  func servicesOfModules() throws {
    let deck = try DeckCLI()
    let shown = try deck.run(["env", "show", "production"])
    #expect(shown.status == 0, "\(shown.stderr)")
    let flyr = try #require(shown.stdout.split(separator: "\n").first { $0.hasPrefix("flyr") })
    #expect(flyr.contains("https://flyrpro.app"))
    #expect(flyr.contains("(brokerage, workspace)"), "\(flyr)")
    // The core's operator endpoints (`deck sandbox`) are on the core's own service.
    let auth = try #require(shown.stdout.split(separator: "\n").first { $0.hasPrefix("auth") })
    #expect(auth.contains("(auth, sandbox)"), "\(auth)")
    let kiosk = try #require(shown.stdout.split(separator: "\n").first { $0.hasPrefix("kiosk") })
    #expect(kiosk.contains("(kiosk)"), "\(kiosk)")
  }
}
