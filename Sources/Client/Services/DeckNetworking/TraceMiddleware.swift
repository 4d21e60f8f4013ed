import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// How much `--trace` prints.
public enum TraceLevel: Sendable, Equatable {
  /// Method, URL, status and time.
  case requests
  /// Also headers and bodies.
  case bodies
}

/// Prints each request to the trace sink (stderr). Secrets never reach it: the
/// `Authorization` header and token fields in bodies and URLs are redacted.
public struct TraceMiddleware: ClientMiddleware {
  let level: TraceLevel
  let sink: @Sendable (String) -> Void
  static let bodyLimit = 16 * 1024

  public init(level: TraceLevel, sink: @escaping @Sendable (String) -> Void) {
    self.level = level
    self.sink = sink
  }

  public func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    let url = Redactor.redact(url: baseURL.absoluteString.trimmingSuffix("/") + (request.path ?? ""))
    var requestBody = body
    var lines = ["> \(request.method.rawValue) \(url)"]
    if level == .bodies {
      lines += request.headerFields.map {
        "> \($0.name): \(Redactor.redact(header: $0.name.canonicalName, value: $0.value))"
      }
      if let body {
        let data = try await Data(collecting: body, upTo: 10 * 1024 * 1024)
        requestBody = HTTPBody(data)
        lines.append(Redactor.redact(body: data, limit: Self.bodyLimit))
      }
    }
    sink(lines.joined(separator: "\n"))
    let start = ContinuousClock.now
    do {
      let (response, responseBody) = try await next(request, requestBody, baseURL)
      let elapsed = ContinuousClock.now - start
      var out = [
        "< \(response.status.code) \(request.method.rawValue) \(url) (\(Self.format(elapsed)))"
          + Self.sandboxMark(response.headerFields)
      ]
      var passBody = responseBody
      if level == .bodies {
        out += response.headerFields.map {
          "< \($0.name): \(Redactor.redact(header: $0.name.canonicalName, value: $0.value))"
        }
        if let responseBody {
          let data = try await Data(collecting: responseBody, upTo: 50 * 1024 * 1024)
          passBody = HTTPBody(data)
          out.append(Redactor.redact(body: data, limit: Self.bodyLimit))
        }
      }
      sink(out.joined(separator: "\n"))
      return (response, passBody)
    } catch {
      // Only the mapped message: the raw error (the runtime's ClientError) quotes the request
      // body, which holds passwords and refresh tokens.
      sink(
        "< error \(request.method.rawValue) \(url) (\(Self.format(ContinuousClock.now - start))): \(UnderlyingError.safeDescription(error))"
      )
      throw error
    }
  }

  /// The sandbox's own headers on a response it shaped: a fault rule fired (`X-Sandbox-Fault:
  /// rule 2`) or the delay held it back (`X-Sandbox-Delay: 2000ms`). Shown after the status
  /// line as ` [sandbox fault rule 2, sandbox delay 2000ms]`; empty for any other response.
  static func sandboxMark(_ headers: HTTPFields) -> String {
    let marks = [("sandbox fault", sandboxFault), ("sandbox delay", sandboxDelay)].compactMap { label, name in
      headers[name].map { "\(label) \(TerminalText.sanitize(String($0.prefix(100))))" }
    }
    return marks.isEmpty ? "" : " [\(marks.joined(separator: ", "))]"
  }

  /// The sandbox's headers on a response a fault rule or its delay shaped (SandboxAdminAPI).
  public static let sandboxFault = HTTPField.Name("X-Sandbox-Fault")!
  public static let sandboxDelay = HTTPField.Name("X-Sandbox-Delay")!

  static func format(_ duration: Duration) -> String {
    NumberText.fixed(duration / .milliseconds(1), digits: 1) + " ms"
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
