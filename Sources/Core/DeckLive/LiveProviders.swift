import DeckCore
import DeckHTTPTransport
import Foundation
import OpenAPIRuntime
import SandboxKit
import Synchronization

/// The real implementations behind the core's `ServiceProviders`: the async-http-client
/// transport and the sandbox server. The executable makes one; tests make one per session to
/// run commands in-process.
public final class LiveProviders: ServiceProviders {
  /// Keeps the embedded sandbox alive for the life of the session.
  private let embedded = Mutex<RunningSandbox?>(nil)
  /// The sandbox server's features (the registry's).
  private let features: [any SandboxFeature.Type]

  package init(sandboxFeatures: [any SandboxFeature.Type]) {
    self.features = sandboxFeatures
  }

  public func makeTransport(timeout: Duration) -> any ClientTransport {
    HTTPTransportFactory.shared.transport(timeout: timeout)
  }

  public func startEmbeddedSandbox(databasePath: String) async throws -> URL {
    let running = try await SandboxServer.start(
      SandboxOptions(
        databasePath: databasePath, features: features, eventLoopGroup: HTTPTransportFactory.eventLoopGroup))
    embedded.withLock { $0 = running }
    return running.baseURL
  }

  public func serveSandbox(
    _ request: SandboxServeRequest, onListening: @escaping @Sendable (ServedSandbox) -> Void
  )
    async throws
  {
    try await SandboxServer.serve(
      SandboxOptions(
        databasePath: request.databasePath, host: request.host, port: request.port,
        accessTokenTTL: request.accessTokenTTL, publicURL: request.publicURL, features: features),
      onListening: { url, adminToken, anonKey in
        onListening(ServedSandbox(url: url, adminToken: adminToken, anonKey: anonKey))
      })
  }

  public func embeddedSandboxAdminToken() -> String? {
    embedded.withLock { $0?.adminToken }
  }

  public func sandboxDatabaseInfo(databasePath: String) throws -> SandboxDatabaseInfo? {
    try SandboxDatabaseFile.inspect(path: databasePath, features: features).map {
      SandboxDatabaseInfo(size: $0.size, appliedMigrations: $0.applied, knownMigrations: $0.known)
    }
  }

  public func certificateExpiry(host: String, port: Int, timeout: Duration) async throws -> Date {
    try await TLSProbe.certificateExpiry(host: host, port: port, timeout: timeout)
  }
}
