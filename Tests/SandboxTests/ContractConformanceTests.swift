import Foundation
import TestSupport
import Testing

@testable import SandboxKit

/// Requests the documents allow, answered as documented (schemathesis's cases).
@Suite("Requests the contracts allow", .serialized, .timeLimit(.minutes(1))) struct ContractConformanceTests {
  @Test func unknownPropertiesMayBeNullButDeclaredOnesMayNot() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    let purchases = "/__sandbox/v1/kiosk/stores/store_demo/purchases"
    let extra = try await server.admin("POST", purchases, body: #"{"other": null}"#)
    #expect(extra.status == 201)
    let declared = try await server.admin("POST", purchases, body: #"{"items": null}"#)
    #expect(declared.status == 400)
  }

  @Test func aSeedsSyntheticCountsMayNotBeNull() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    let refused = try await server.admin("POST", "/__sandbox/v1/seed", body: #"{"synthetic": null}"#)
    #expect(refused.status == 400, "\(refused.body)")
  }

  @Test func timestampsFollowTheDocumentedPattern() {
    #expect(ContractText.parseTimestamp("2026-02-30") != nil, "rolls over to March")
    #expect(ContractText.parseTimestamp("2026-01-01T10:00Z") != nil)
    #expect(ContractText.parseTimestamp("2026-01-01T10:00:00.5+02:00") != nil)
    #expect(ContractText.parseTimestamp("2026-01-01T10:00") == nil, "a time needs a zone")
    #expect(ContractText.parseTimestamp("") == nil)
    #expect(ContractText.isEmail("a@b.co"))
    #expect(!ContractText.isEmail(" a@b.co"))
    #expect(!ContractText.isEmail("a@b..co"))
  }
}
