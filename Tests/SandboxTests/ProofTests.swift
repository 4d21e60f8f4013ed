import DeckSupport
import Foundation
import TestSupport
import Testing

@testable import SandboxKit

/// Issue 44 (finding 9): the server proves it holds its admin token without anyone sending it,
/// and nothing else of the operator endpoints opens with it.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ProofTests {
  @Test func theProofNeedsNoTokenAndProvesTheServersOwn() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    let nonce = SandboxProof.nonce()
    let proof = try await OperatorTests.curl([server.base + SandboxProof.path + "?nonce=" + nonce])
    #expect(proof.status == 200)
    #expect(proof.json?["proof"] as? String == SandboxProof.answer(adminToken: server.sandbox.adminToken, nonce: nonce))
    #expect(!proof.body.contains(server.sandbox.adminToken))
    // Every other operator path still needs the token, whatever the spelling.
    #expect(try await OperatorTests.curl([server.base + "/__sandbox/v1/info"]).status == 401)
    #expect(try await OperatorTests.curl([server.base + "//__sandbox/v1/info?nonce=" + nonce]).status == 401)
    // A nonce that is not one: 400, and nothing computed from it.
    for bad in ["", "short", String(repeating: "Z", count: 40), String(repeating: "a", count: 129)] {
      let reply = try await OperatorTests.curl([server.base + SandboxProof.path + "?nonce=" + bad])
      #expect(reply.status == 400, "\(bad): \(reply.status)")
      #expect(reply.json?["proof"] == nil)
    }
    #expect(try await OperatorTests.curl([server.base + SandboxProof.path]).status == 400)
  }

  /// A fault rule or delay for every path never shapes the proof, which deck asks before each
  /// use of the local sandbox.
  @Test func faultRulesDoNotReachTheProof() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    let added = try await server.addFault(#"{"path": "/**", "action": "status", "status": 503}"#)
    #expect(added.status == 201 || added.status == 200, "\(added.body)")
    let nonce = SandboxProof.nonce()
    let proof = try await OperatorTests.curl([server.base + SandboxProof.path + "?nonce=" + nonce])
    #expect(proof.status == 200)
    #expect(proof.json?["proof"] as? String == SandboxProof.answer(adminToken: server.sandbox.adminToken, nonce: nonce))
  }
}
