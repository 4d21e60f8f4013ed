import DeckSupport
import Foundation
import Hummingbird
import NIOCore
import OpenAPIRuntime
import Synchronization

/// Refuses request bodies over ``limit`` bytes with 413, without buffering them: a declared
/// Content-Length over the limit is refused before any byte is read, and a streamed (chunked)
/// body is cut off as soon as it passes the limit.
struct BodyLimitMiddleware: RouterMiddleware {
  static let limit = 1 << 20
  static let message = "The request body is larger than 1 MB (1048576 bytes)."
  /// Paths that take other limits (``SandboxRoutes/limitBodies(under:to:refusal:)``).
  var limits = BodyLimits()

  func handle(
    _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    let (limit, refusal) = limits.limit(for: request.uri.path) ?? (Self.limit, .simple(.contentTooLarge, Self.message))
    if let declared = request.headers[.contentLength] {
      guard let length = Int(declared.trimmingCharacters(in: .whitespaces)), length >= 0 else {
        return Self.refusal(.simple(.badRequest, "Invalid Content-Length."), closing: context.channel)
      }
      if length > limit { return Self.refusal(refusal, closing: context.channel) }
      return try await next(request, context)
    }
    // Streamed: count the bytes as they arrive, and fail the stream when they pass the limit.
    let exceeded = Flag()
    var limited = request
    limited.body = RequestBody(asyncSequence: LimitedBody(base: request.body, limit: limit, exceeded: exceeded))
    do {
      let response = try await next(limited, context)
      if exceeded.isSet { return Self.refusal(refusal, closing: context.channel) }
      return response
    } catch {
      if exceeded.isSet { return Self.refusal(refusal, closing: context.channel) }
      throw error
    }
  }

  /// An error response that also closes the connection: `Connection: close`, and the connection
  /// is closed ``ConnectionLimits/linger`` after the response is written, however much of the
  /// request's body is still to come.
  static func refusal(_ error: SandboxAPIError, closing channel: any Channel) -> Response {
    let buffer = ByteBuffer(data: error.encoded)
    return Response(
      status: error.status, headers: [.contentType: "application/json", .connection: "close"],
      body: ResponseBody(contentLength: buffer.readableBytes) { writer in
        try await writer.write(buffer)
        try await writer.finish(nil)
        ConnectionLimits.close(channel)
      })
  }

  struct TooLarge: Error {}

  struct LimitedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: RequestBody
    let limit: Int
    let exceeded: Flag

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), limit: limit, exceeded: exceeded) }

    struct Iterator: AsyncIteratorProtocol {
      var base: RequestBody.AsyncIterator
      let limit: Int
      let exceeded: Flag
      var count = 0

      mutating func next() async throws -> ByteBuffer? {
        guard let buffer = try await base.next() else { return nil }
        count += buffer.readableBytes
        if count > limit {
          exceeded.set()
          throw TooLarge()
        }
        return buffer
      }
    }
  }

  /// Body limits of the paths under some prefixes, which features set while their routes are
  /// registered (a storage bucket takes bigger bodies than the JSON APIs).
  final class BodyLimits: Sendable {
    private let prefixes = Mutex<[(prefix: String, bytes: Int, refusal: SandboxAPIError)]>([])

    func set(under prefix: String, to bytes: Int, refusal: SandboxAPIError) {
      prefixes.withLock { $0.append((prefix, bytes, refusal)) }
    }

    func limit(for path: String) -> (Int, SandboxAPIError)? {
      prefixes.withLock { list in
        list.first { path.hasPrefix($0.prefix) }.map { ($0.bytes, $0.refusal) }
      }
    }
  }

  final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
  }
}

/// The operator endpoints (/__sandbox/v1) need the sandbox's admin token, and requests that
/// change state also need `Content-Type: application/json` and a loopback (or the server's own)
/// Host and Origin: a web page in the operator's browser can neither read nor reset the sandbox.
///
/// The guard is attached to the operator routes themselves (``RecordingTransport`` registers
/// them in a router group of their own), not decided from the request's path: any spelling of
/// a path that the router matches to an operator route (`//__sandbox/v1/reset`,
/// `/__sandbox//v1/…`) goes through it.
struct OperatorGuardMiddleware: RouterMiddleware {
  static let prefix = "/__sandbox/v1"
  let state: SandboxState

  static let unauthorized =
    "The sandbox admin token is missing or wrong: send Authorization: Bearer TOKEN (deck sandbox serve prints it)."
  static let wrongHost = "Operator requests that change the sandbox must come from loopback (Host and Origin)."
  static let notJSON = "Operator requests that change the sandbox must be Content-Type: application/json."

  /// Operator routes that need no token and take no fault rule or delay: the proof
  /// (``SandboxProof``), which tells nothing of the token.
  static let openRoutes: Set<String> = [SandboxProof.path]

  /// Whether a route's path template is an operator endpoint's (decided at registration).
  static func isOperatorRoute(_ template: String) -> Bool {
    let path = RequestPath.normalized(template)
    return path == prefix || path.hasPrefix(prefix + "/")
  }

  func handle(
    _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    // Refused before the body is read: the connection is closed after the answer.
    func refusal(_ error: SandboxAPIError) -> Response { BodyLimitMiddleware.refusal(error, closing: context.channel) }
    guard let token = Self.bearerToken(request.headers[.authorization]), Self.equal(token, state.adminToken) else {
      var response = refusal(.simple(.unauthorized, Self.unauthorized))
      response.headers[.wwwAuthenticate] = "Bearer realm=\"deck-sandbox\""
      return response
    }
    if ![.get, .head].contains(request.method) {
      guard let host = request.head.authority, isAllowed(authority: host) else {
        return refusal(.simple(.forbidden, Self.wrongHost))
      }
      if let origin = request.headers[.origin] {
        guard let authority = Self.authority(ofOrigin: origin), isAllowed(authority: authority) else {
          return refusal(.simple(.forbidden, Self.wrongHost))
        }
      }
      guard Self.isJSON(request.headers[.contentType]) else {
        return refusal(.simple(.unsupportedMediaType, Self.notJSON))
      }
    }
    return try await next(request, context)
  }

  static func bearerToken(_ value: String?) -> String? {
    guard let value else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return parts[1].trimmingCharacters(in: .whitespaces)
  }

  /// Compares in time that depends only on the lengths.
  static func equal(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for index in x.indices { difference |= x[index] ^ y[index] }
    return difference == 0
  }

  static func isJSON(_ contentType: String?) -> Bool {
    guard let contentType else { return false }
    let media = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    return media == "application/json"
  }

  /// A loopback host, or the host of the server's own public URL.
  func isAllowed(authority: String) -> Bool {
    let host = Self.host(ofAuthority: authority)
    if LoopbackAddress.isLoopback(host) { return true }
    guard let own = state.publicAuthority else { return false }
    return host == Self.host(ofAuthority: own)
  }

  /// The host of `host[:port]` or `[v6]:port`, lowercased, without brackets.
  static func host(ofAuthority authority: String) -> String {
    let text = authority.lowercased()
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
      return String(text[text.index(after: text.startIndex)..<close])
    }
    if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
      return String(text[..<colon])
    }
    return text
  }

  /// `http://host:port` → `host:port`; nil for `null` or anything without a scheme.
  static func authority(ofOrigin origin: String) -> String? {
    guard let range = origin.range(of: "://") else { return nil }
    let rest = origin[range.upperBound...]
    let authority = rest.prefix { $0 != "/" }
    return authority.isEmpty ? nil : String(authority)
  }
}

/// Loopback as an address, not a prefix: `localhost`, `::1` and the IPv4 literals of 127.0.0.0/8.
enum LoopbackAddress {
  static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased()
    if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    guard octets.count == 4 else { return false }
    var values: [Int] = []
    for octet in octets {
      guard (1...3).contains(octet.count), octet.allSatisfy(\.isASCII), octet.allSatisfy(\.isNumber),
        let value = Int(octet), (0...255).contains(value)
      else { return false }
      values.append(value)
    }
    return values[0] == 127
  }
}

/// The OpenAPI operations' (method, path template) pairs, so that a known path asked with an
/// undeclared method gets 405 (with Allow) rather than 404.
final class RouteTable: Sendable {
  private let routes = Mutex<[(method: HTTPRequest.Method, segments: [Substring])]>([])

  func add(_ method: HTTPRequest.Method, _ path: String) {
    let segments = path.split(separator: "/")
    routes.withLock { $0.append((method, segments)) }
  }

  /// The methods declared for a concrete path (empty: the path is unknown). When templates of
  /// different shapes match (`/object/move` and `/object/{bucket}`), the router takes the one
  /// whose literal segments come first, so only that shape's methods count: Allow names what
  /// the resource the router resolves to accepts, not what a template it passed over would.
  func methods(for path: String) -> [HTTPRequest.Method] {
    let segments = path.split(separator: "/")
    let matches = routes.withLock { routes in
      routes.filter { route in
        route.segments.count == segments.count
          && zip(route.segments, segments).allSatisfy { template, actual in
            Self.isParameter(template) || template == actual
          }
      }
    }
    guard let best = matches.map({ Self.shape($0.segments) }).max(by: { $0.lexicographicallyPrecedes($1) }) else {
      return []
    }
    return matches.filter { Self.shape($0.segments) == best }.map(\.method)
  }

  private static func isParameter(_ segment: Substring) -> Bool {
    segment.hasPrefix(":") || (segment.hasPrefix("{") && segment.hasSuffix("}"))
  }

  /// 1 for a literal segment, 0 for a parameter: a larger shape is a more specific template.
  private static func shape(_ segments: [Substring]) -> [Int] {
    segments.map { isParameter($0) ? 0 : 1 }
  }
}

/// Registers OpenAPI operations on the router and records them in a ``RouteTable``. Operator
/// operations (under ``OperatorGuardMiddleware/prefix``) go in ``operatorRoutes``, a group with
/// the guard attached; the others in ``publicRoutes``, a group with the fault rules, the delay
/// and the response cache.
package struct RecordingTransport: ServerTransport {
  let publicRoutes: SandboxRouteGroup
  let operatorRoutes: SandboxRouteGroup
  /// ``OperatorGuardMiddleware/openRoutes``: no guard, no faults.
  let openOperatorRoutes: SandboxRouteGroup
  let table: RouteTable

  package func register(
    _ handler:
      @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
        HTTPResponse, HTTPBody?
      ),
    method: HTTPRequest.Method, path: String
  ) throws {
    table.add(method, path)
    let group =
      OperatorGuardMiddleware.openRoutes.contains(RequestPath.normalized(path))
      ? openOperatorRoutes : OperatorGuardMiddleware.isOperatorRoute(path) ? operatorRoutes : publicRoutes
    group.register(handler, method: method, path: path)
  }
}

/// A request path as the router matches it: its segments, without empty ones (`//a/b/` is
/// `/a/b`), not percent-decoded (the router compares the raw segments).
enum RequestPath {
  static func normalized(_ path: String) -> String {
    let utf8 = path.utf8
    // Most paths are already normal: no empty segment, no trailing slash.
    if utf8.first == UInt8(ascii: "/"), utf8.count == 1 || utf8.last != UInt8(ascii: "/"), !path.contains("//") {
      return path
    }
    return "/" + path.split(separator: "/").joined(separator: "/")
  }

  /// Whether a segment is `.` or `..`, literally or percent-encoded (decoded once).
  static func hasDotSegment(_ path: String) -> Bool {
    path.split(separator: "/").contains { segment in
      let decoded = String(segment).removingPercentEncoding ?? String(segment)
      return decoded == "." || decoded == ".."
    }
  }
}

/// Refuses a path with a dot segment (`/./`, `/../`, also percent-encoded) with 400: the router
/// would take it literally, and no client of the contracts sends one.
struct DotSegmentMiddleware: RouterMiddleware {
  static let message = "The request path has a . or .. segment; send the path without them."

  func handle(
    _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    guard !RequestPath.hasDotSegment(request.uri.path) else {
      return Response.json(.simple(.badRequest, Self.message))
    }
    return try await next(request, context)
  }
}

/// 405 with Allow for a declared path asked with a method it does not declare.
struct MethodNotAllowedMiddleware: RouterMiddleware {
  let table: RouteTable

  func handle(
    _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as HTTPError where error.status == .notFound && [nil, "NotFound"].contains(context.endpointPath) {
      let methods = table.methods(for: request.uri.path)
      guard !methods.isEmpty, !methods.contains(request.method) else { throw error }
      var response = Response.json(.simple(.methodNotAllowed, "Method Not Allowed"))
      response.headers[.allow] = methods.map(\.rawValue).joined(separator: ", ")
      return response
    }
  }
}
