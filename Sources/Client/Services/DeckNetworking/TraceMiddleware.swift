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

/// Removes secrets from what deck traces.
public enum Redactor {
  public static let mask = "[REDACTED]"
  static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie", "apikey"]

  public static func redact(header name: String, value: String) -> String {
    guard secretHeaders.contains(name.lowercased()) else { return value }
    if let space = value.firstIndex(of: " "), value.lowercased().hasPrefix("bearer") {
      return "\(value[..<space]) \(mask)"
    }
    return mask
  }

  /// Masks the values of secret JSON fields (`"access_token": "…"`).
  public static func redact(body: Data, limit: Int) -> String {
    // access_token, refresh_token, password, token, provider_token and id_token.
    var text = String(decoding: body.prefix(limit), as: UTF8.self).replacing(
      /("(?:access_token|refresh_token|password|token|provider_token|id_token)"\s*:\s*)"(?:[^"\\]|\\.)*"/
    ) { $0.output.1 + "\"\(mask)\"" }
    if body.count > limit { text += "\n… (\(body.count - limit) more bytes)" }
    return text
  }

  /// Masks the tokens in free text (a report, what a command printed): JSON Web Tokens (the
  /// shape of every token deck holds) and `Bearer` values.
  public static func redact(text: String) -> String {
    text.replacing(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/, with: mask)
      .replacing(/(?i)(bearer\s+)[A-Za-z0-9._~+\/=-]{8,}/) { $0.output.1 + mask }
  }

  /// Masks secret query parameters (`?token=…`).
  public static func redact(url: String) -> String {
    url.replacing(/([?&](?:token|access_token|refresh_token)=)[^&#\s"']*/) { $0.output.1 + mask }
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
