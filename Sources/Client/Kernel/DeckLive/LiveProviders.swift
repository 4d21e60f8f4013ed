import DeckCore
import DeckHTTPTransport
import FoundationEssentials
import OpenAPIRuntime

/// The real implementations behind the core's `ServiceProviders`: the async-http-client
/// transport and the TLS and TCP probes. The executable makes one; tests make one per session
/// to run commands in-process.
public final class LiveProviders: ServiceProviders {
  public init() {}

  public func makeTransport(timeout: Duration) -> any ClientTransport {
    HTTPTransportFactory.shared.transport(timeout: timeout)
  }

  public func certificateExpiry(host: String, port: Int, timeout: Duration) async throws -> Date {
    try await TLSProbe.certificateExpiry(host: host, port: port, timeout: timeout)
  }

  public func acceptsConnection(host: String, port: Int, timeout: Duration) async -> Bool {
    await TLSProbe.acceptsConnection(host: host, port: port, timeout: timeout)
  }

  public func preferringClientThread<T: Sendable>(_ body: () async -> T) async -> T {
    await withTaskExecutorPreference(ClientLoopExecutor.shared) { await body() }
  }
}
