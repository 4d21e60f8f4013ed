import DeckSupport
import DeckValues
import Foundation
import Hummingbird
import OpenAPIRuntime
import ServiceLifecycle

/// An error that becomes a JSON error response with the given status.
package struct SandboxAPIError: Error, HTTPResponseConvertible {
  package var status: HTTPResponse.Status
  package var json: [String: JSONValue]

  package init(status: HTTPResponse.Status, json: [String: JSONValue]) {
    self.status = status
    self.json = json
  }

  /// FLYR and sandbox-admin style: `{"error": message}`.
  package static func simple(_ status: HTTPResponse.Status, _ message: String) -> SandboxAPIError {
    SandboxAPIError(status: status, json: ["error": .string(message)])
  }

  package static let internalError = simple(.internalServerError, "internal error")

  package var httpStatus: HTTPResponse.Status { status }
  package var httpHeaderFields: HTTPFields { [.contentType: "application/json"] }
  package var httpBody: HTTPBody? { HTTPBody(encoded) }

  package var encoded: Data {
    (try? DeckJSON.compactEncoder.encode(json)) ?? Data("{}".utf8)
  }

  package var response: (HTTPResponse, HTTPBody?) {
    (HTTPResponse(status: status, headerFields: httpHeaderFields), httpBody)
  }
}

/// Turns every error of an OpenAPI operation into a JSON error response in the API's style:
/// ``SandboxAPIError``s as they are, an Accept header the operation cannot satisfy into a 406,
/// request decoding failures (4xx) through `requestError`, anything else into a 500.
package struct ErrorResponseMiddleware: ServerMiddleware {
  /// Builds the error for a request that could not be decoded (missing or malformed parameter
  /// or body). Gets the operation id, the request and the status the runtime chose.
  package var requestError: @Sendable (String, HTTPRequest, HTTPResponse.Status) -> SandboxAPIError
  /// The body of unexpected failures.
  package var internalError = SandboxAPIError.internalError

  package init(requestError: @escaping @Sendable (String, HTTPRequest, HTTPResponse.Status) -> SandboxAPIError) {
    self.requestError = requestError
  }

  package func intercept(
    _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    do {
      return try await next(request, body, metadata)
    } catch let error as ServerError {
      if let apiError = error.underlyingError as? SandboxAPIError { return apiError.response }
      if let failure = error.underlyingError as? SQLFailure, failure.isBadText {
        // Text no database of the backend's kind stores (a NUL character): the request's fault.
        return requestError(operationID, request, .badRequest).response
      }
      if error.httpStatus == .notAcceptable {
        // Asked in the Accept header for a type this operation does not answer with.
        let accept = request.headerFields[.accept].map(ContractText.trim) ?? ""
        return SandboxAPIError.simple(
          .notAcceptable, "this route answers application/json, not \(accept): send Accept: application/json"
        ).response
      }
      if error.operationInput == nil, (400..<500).contains(error.httpStatus.code) {
        return requestError(operationID, request, error.httpStatus).response
      }
      return internalError.response
    } catch let error as SandboxAPIError {
      return error.response
    } catch {
      return internalError.response
    }
  }
}

/// The head of the request being handled, for OpenAPI handlers that need headers the
/// operations do not declare (Authorization).
package enum CurrentRequest {
  @TaskLocal package static var head: HTTPRequest?
  /// The client's IP address (the connection's peer), when it has one.
  @TaskLocal package static var clientAddress: String?

  /// The bearer token of the current request's Authorization header, if any.
  package static var bearerToken: String? {
    guard let value = head?.headerFields[.authorization] else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    let token = parts[1].trimmingCharacters(in: .whitespaces)
    return token.isEmpty ? nil : token
  }
}

/// Stores the request head in ``CurrentRequest/head``, and the peer's address in
/// ``CurrentRequest/clientAddress``, for the rest of the chain.
struct RequestHeadMiddleware: RouterMiddleware {
  func handle(
    _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    try await CurrentRequest.$head.withValue(request.head) {
      try await CurrentRequest.$clientAddress.withValue(context.channel.remoteAddress?.ipAddress) {
        try await next(request, context)
      }
    }
  }
}

/// Delays every response outside the admin prefix by the sandbox's current delay (the
/// database's, as ``FaultMiddleware`` read it for this request: in a QA run, the run's own if
/// it set one, else the global one), and says so in
/// `X-Sandbox-Delay: <milliseconds>ms`.
struct DelayMiddleware<Context: RequestContext>: RouterMiddleware {
  static var adminPrefix: String { "/__sandbox/" }
  let state: SandboxState

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let settings = if let current = FaultSettings.current { current } else { try await state.faultSettings() }
    let milliseconds = settings.delay(in: RequestScope.current)
    if milliseconds > 0, !RequestPath.normalized(request.uri.path).hasPrefix(Self.adminPrefix) {
      // Cancellable, and cut short by a graceful shutdown so that stopping never waits for it.
      do {
        try await cancelWhenGracefulShutdown {
          try await Task.sleep(for: .milliseconds(milliseconds))
        }
      } catch {
        return Response.json(.simple(.serviceUnavailable, "the sandbox is shutting down"))
      }
      var response = try await next(request, context)
      response.headers[.sandboxDelay] = "\(milliseconds)ms"
      return response
    }
    return try await next(request, context)
  }
}

package extension Response {
  /// A Hummingbird response carrying a ``SandboxAPIError``.
  static func json(_ error: SandboxAPIError) -> Response {
    Response(
      status: error.status, headers: [.contentType: "application/json"],
      body: .init(byteBuffer: ByteBuffer(data: error.encoded)))
  }
}

/// Refuses a JSON `null` for a property the document does not declare nullable: the generated
/// decoder reads `null` as absent, which would accept what the schema forbids.
package struct RejectNullsMiddleware: ServerMiddleware {
  /// Operation id → its declared properties that may not be null (unknown properties may be).
  package let operations: [String: Set<String>]
  package let error: @Sendable (String, HTTPRequest) -> SandboxAPIError

  package init(
    operations: [String: Set<String>], error: @escaping @Sendable (String, HTTPRequest) -> SandboxAPIError
  ) {
    self.operations = operations
    self.error = error
  }

  package func intercept(
    _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    guard let nonNullable = operations[operationID], let body else { return try await next(request, body, metadata) }
    let data = try await Data(collecting: body, upTo: BodyLimitMiddleware.limit)
    if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      object.contains(where: { $0.value is NSNull && nonNullable.contains($0.key) })
    {
      return error(operationID, request).response
    }
    return try await next(request, HTTPBody(data), metadata)
  }
}

/// Limits the server enforces, for features that read bodies themselves.
package enum RequestLimits {
  /// The largest request body, in bytes (bigger ones get 413 before a handler runs).
  package static let bodyBytes = BodyLimitMiddleware.limit
}

/// Puts back the `null`s of required, nullable properties in JSON responses (the kiosk's `next`
/// answers `{"session": null, "order": null}`). deck's own types keep null keys with
/// DeckSupport's `ExplicitNull`; generated response types cannot carry it
/// (swift-openapi-generator leaves absent optionals out), so for them the server fills the
/// keys in here, through DeckSupport's `JSONNulls`, the same code deck's merge patches use.
package struct ExplicitNullsMiddleware: ServerMiddleware {
  /// Operation id → the key paths that must be present in its 2xx responses; `*` stands for
  /// every element of an array (`["categories", "*", "updatedAt"]`).
  package let paths: [String: [[String]]]

  package init(_ paths: [String: [[String]]]) { self.paths = paths }

  package func intercept(
    _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    let (response, responseBody) = try await next(request, body, metadata)
    guard let keyPaths = paths[operationID], (200..<300).contains(response.status.code), let responseBody else {
      return (response, responseBody)
    }
    let data = try await Data(collecting: responseBody, upTo: 16 << 20)
    var head = response
    head.headerFields[.contentLength] = nil
    return (head, HTTPBody(JSONNulls.fill(data, keyPaths)))
  }
}
