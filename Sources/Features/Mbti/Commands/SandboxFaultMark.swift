import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// Keeps the `X-Sandbox-Fault` mark (`rule 3`) of the last answer a client got: a sandbox fault
/// rule shaped it. Innermost in the client's middleware, so it sees the answer before deck's
/// error mapping turns an error status into an error.
final class SandboxFaultMark: ClientMiddleware, Sendable {
  private let mark = Mutex<String?>(nil)

  /// The last answer's mark, e.g. `rule 3`; nil when a rule shaped none.
  var rule: String? { mark.withLock { $0 } }

  static let header = HTTPField.Name("X-Sandbox-Fault")!

  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    let (response, responseBody) = try await next(request, body, baseURL)
    // The mark is the sandbox's: shown on a terminal, so kept short and printable.
    let value = response.headerFields[Self.header].map {
      String($0.prefix(40).filter { $0.isLetter || $0.isNumber || $0 == " " })
    }
    mark.withLock { $0 = value }
    return (response, responseBody)
  }

  /// The rule's id in `rule 3`, for `deck sandbox fault clear 3`.
  static func id(of rule: String) -> String? {
    rule.hasPrefix("rule ") ? String(rule.dropFirst(5)) : nil
  }
}
