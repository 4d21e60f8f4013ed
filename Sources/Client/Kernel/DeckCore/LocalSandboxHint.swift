import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// In the default environment, the sandbox is the one deck starts itself: a connection it
/// refused or dropped (the transport's connect errors) is no reason to run `deck sandbox serve
/// --port N`, the transport's hint for a loopback URL. This transport says what is true there.
struct LocalSandboxTransport: ClientTransport {
  static let hint =
    "deck runs this sandbox itself and starts it again on the next command if it stopped (`deck sandbox status`); a fault rule may be resetting connections (`deck sandbox fault list`)."

  let base: any ClientTransport

  func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
    HTTPResponse, HTTPBody?
  ) {
    do {
      return try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
    } catch var error as DeckError where error.isConnectError {
      error.hint = Self.hint
      throw error
    }
  }
}
