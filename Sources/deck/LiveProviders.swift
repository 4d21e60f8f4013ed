import DeckCore
import DeckHTTPTransport
import DeckSandbox
import Foundation
import OpenAPIRuntime
import Synchronization

/// The real implementations behind the core's `ServiceProviders`.
struct LiveProviders: ServiceProviders {
  /// Keeps the embedded sandbox alive for the life of the process.
  private static let embedded = Mutex<RunningSandbox?>(nil)

  func makeTransport(timeout: Duration) -> any ClientTransport {
    HTTPTransportFactory.shared.transport(timeout: timeout)
  }

  func sandboxAnonKey(databasePath: String) throws -> String {
    try SandboxServer.anonKey(databasePath: databasePath)
  }

  func startEmbeddedSandbox(databasePath: String) async throws -> URL {
    let running = try await SandboxServer.start(SandboxOptions(databasePath: databasePath))
    Self.embedded.withLock { $0 = running }
    return running.baseURL
  }

  func serveSandbox(_ request: SandboxServeRequest, onListening: @escaping @Sendable (URL, String) -> Void)
    async throws
  {
    try await SandboxServer.serve(
      SandboxOptions(
        databasePath: request.databasePath, host: request.host, port: request.port,
        accessTokenTTL: request.accessTokenTTL, publicURL: request.publicURL),
      onListening: onListening)
  }

  func embeddedSandboxAdminToken() -> String? {
    Self.embedded.withLock { $0?.adminToken }
  }
}
