import DeckCore
import DeckNetworking
import DeckSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import TestFixtures
import Testing

@Suite("Errors and exit codes")
struct ErrorMappingTests {
  init() { FeatureServices.register() }

  @Test(arguments: [
    (400, Int32(65)), (409, 65), (422, 65), (401, 77), (403, 77), (404, 1), (429, 69), (500, 69), (503, 69),
  ])
  func statusesMapToDocumentedExitCodes(status: Int, exit: Int32) {
    #expect(HTTPErrorMapping.error(status: status, body: Data(), service: "flyr").exitCode == exit)
  }

  @Test func serverMessageIsShown() {
    let error = HTTPErrorMapping.error(
      status: 403, body: Data(#"{"error":"This invite was sent to a different email address"}"#.utf8), service: "flyr")
    #expect(error.message == "This invite was sent to a different email address")
    let gotrue = HTTPErrorMapping.error(
      status: 400, body: Data(#"{"error":"invalid_grant","error_description":"Invalid login credentials"}"#.utf8),
      service: "auth")
    #expect(gotrue.message == "Invalid login credentials")
  }

  @Test("no presented error ends in a doubled period, whatever the server's message ends with")
  func noDoubledPeriod() {
    let messages = ["Fault injected by deck sandbox fault (rule 1).", "Something went wrong", ""]
    for status in [400, 401, 403, 404, 409, 422, 429, 500, 503, 418] {
      for message in messages {
        let body = message.isEmpty ? Data() : Data(#"{"error":"\#(message)"}"#.utf8)
        let printed = Mutex("")
        let output = Output(
          stdoutIsTerminal: false, stderrIsTerminal: false, colorEnabled: false, writeOut: { _ in },
          writeErr: { text in printed.withLock { $0 += text } })
        _ = ErrorPresenter.present(HTTPErrorMapping.error(status: status, body: body, service: "nudge"), output: output)
        for line in printed.withLock({ $0 }).split(separator: "\n") {
          #expect(!line.hasSuffix(".."), "\(status): \(line)")
          #expect(!line.contains(". (HTTP"), "the server's period inside deck's sentence, \(status): \(line)")
        }
      }
    }
  }

  @Test func wrappedErrorsKeepTheirExitCode() {
    let inner = DeckError(.unauthorized(status: 401), "expired")
    let wrapped = ClientError(
      operationID: "x", operationInput: (), request: nil, requestBody: nil, baseURL: nil, response: nil,
      responseBody: nil, causeDescription: "middleware", underlyingError: inner)
    #expect(ErrorPresenter.deckError(for: wrapped).exitCode == 77)
    #expect(ErrorPresenter.deckError(for: CancellationError()).exitCode == 130)
    #expect(DeckError.usage("x").exitCode == 64)
  }
}
