import Foundation
import Hummingbird

/// Which web origins may call the sandbox from a browser: loopback ones always
/// (`http://localhost:3000`, `http://127.0.0.1:5173`), others when `serve --cors-origin` names
/// them. An origin is `scheme://host[:port]`, compared without regard to case.
package struct CORSOrigins: Sendable, Equatable {
  /// The origins named besides loopback ones, normalized (lowercased, no trailing slash).
  package private(set) var extra: [String]

  package init(_ extra: [String] = []) {
    self.extra = extra.compactMap(Self.normalized)
  }

  /// `origin` as ``extra`` stores it, or nil when it is not `http(s)://host[:port]`.
  package static func normalized(_ origin: String) -> String? {
    var text = origin.trimmingCharacters(in: .whitespaces).lowercased()
    if text.hasSuffix("/") { text.removeLast() }
    guard let components = URLComponents(string: text), ["http", "https"].contains(components.scheme),
      let host = components.host, !host.isEmpty, components.path.isEmpty, components.query == nil,
      components.fragment == nil, components.user == nil, components.password == nil
    else { return nil }
    return text
  }

  /// Whether a browser page of `origin` may read the sandbox's answers; operator routes take
  /// only loopback origins, as their guard does (``OperatorGuardMiddleware``).
  func allows(_ origin: String, operatorRoute: Bool) -> Bool {
    guard let origin = Self.normalized(origin), let authority = OperatorGuardMiddleware.authority(ofOrigin: origin)
    else { return false }
    if LoopbackAddress.isLoopback(OperatorGuardMiddleware.host(ofAuthority: authority)) { return true }
    return !operatorRoute && extra.contains(origin)
  }
}

/// CORS as a Supabase project's gateway serves it, for the origins ``CORSOrigins`` allows: a
/// preflight (`OPTIONS` with `Access-Control-Request-Method`) on any path is answered 200 with
/// the methods and the headers asked for, and every answer to an allowed origin, errors
/// included, names it in `Access-Control-Allow-Origin`. Another origin gets no CORS header
/// (its preflight is still answered, so the browser, not the sandbox, refuses it).
struct CORSMiddleware: RouterMiddleware {
  static let allowedMethods = "GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS"
  /// Response headers a page may read beyond the safelisted ones (counts, ETags, error codes).
  static let exposedHeaders =
    "Content-Range, Content-Location, Location, ETag, Retry-After, X-Supabase-Api-Version, x-sb-error-code, X-Sandbox-Delay"

  let origins: CORSOrigins

  func handle(
    _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    let origin = request.headers[.origin]
    let allowed = origin.map { origins.allows($0, operatorRoute: Self.isOperatorPath(request.uri.path)) } ?? false
    if request.method == .options, origin != nil, request.headers[.accessControlRequestMethod] != nil {
      var response = Response(status: .ok, headers: [.contentLength: "0"])
      response.headers[.vary] = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
      guard allowed, let origin else { return response }
      response.headers[.accessControlAllowOrigin] = origin
      response.headers[.accessControlAllowMethods] = Self.allowedMethods
      if let asked = request.headers[.accessControlRequestHeaders] {
        response.headers[.accessControlAllowHeaders] = asked
      }
      response.headers[.accessControlMaxAge] = "3600"
      return response
    }
    var response: Response
    do {
      response = try await next(request, context)
    } catch let error as any HTTPResponseError where allowed {
      response = try error.response(from: request, context: context)
    }
    if allowed, let origin {
      response.headers[.accessControlAllowOrigin] = origin
      response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
      response.headers[values: .vary].append("Origin")
    }
    return response
  }

  private static func isOperatorPath(_ path: String) -> Bool {
    let normalized = RequestPath.normalized(path)
    return normalized == OperatorGuardMiddleware.prefix || normalized.hasPrefix(OperatorGuardMiddleware.prefix + "/")
  }
}
