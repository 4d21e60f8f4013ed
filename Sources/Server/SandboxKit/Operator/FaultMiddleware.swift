import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// Applies the fault rules (`deck sandbox fault`) to the public routes (the operator endpoints,
/// in a router group without it, keep working whatever the rules say): the global ones to every
/// request, a QA run's to its own requests only (``RequestScope``). The rules (and the
/// delay) are the database's, shared by every instance serving it (``FaultSettings``). A
/// rule's path is compared by segments, as the router matches them (`//search` is `/search`:
/// FaultPattern).
/// Every response a rule shaped carries `X-Sandbox-Fault: rule <id>` (a reset answers nothing).
struct FaultMiddleware: RouterMiddleware {
  let state: SandboxState

  static let malformedBody = #"{"error": "malformed body injected by deck sandbox fault"#

  func handle(
    _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    // Read once for this request: the delay middleware, next, takes them from here.
    let settings = try await state.faultSettings()
    return try await FaultSettings.$current.withValue(settings) {
      try await apply(settings, request, context: context, next: next)
    }
  }

  private func apply(
    _ settings: FaultSettings, _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    guard
      let chosen = settings.rules.choose(
        method: request.method.rawValue, path: request.uri.path, scope: RequestScope.current)
    else {
      return try await next(request, context)
    }
    if chosen.action.changesShape { return try await shape(chosen, request, context: context, next: next) }
    guard let rule = try await state.countFault(id: chosen.id) else { return try await next(request, context) }
    RequestLogMiddleware.Note.current?.fired(rule: rule.id)
    if let refusal = await Self.wait(rule) { return refusal }
    let mark = "rule \(rule.id)"
    switch rule.action {
    case .latency:
      var response = try await next(request, context)
      response.headers[.sandboxFault] = mark
      return response
    case .status:
      var response = Response.json(
        .simple(.init(code: rule.status), "Fault injected by deck sandbox fault (rule \(rule.id))."))
      if let retryAfter = rule.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
      response.headers[.sandboxFault] = mark
      return response
    case .malformed:
      return Response(
        status: .ok, headers: [.contentType: "application/json", .sandboxFault: mark],
        body: .init(byteBuffer: ByteBuffer(string: Self.malformedBody)))
    case .reset:
      Self.reset(context.channel)
      throw FaultError.connectionReset
    case .dropField, .retypeField, .enumValue:
      // A rule's action does not change: shape rules were applied above.
      return try await next(request, context)
    case .truncate:
      let response = try await next(request, context)
      let collected = CollectingWriter.Storage()
      try await response.body.write(CollectingWriter(storage: collected))
      let full = collected.buffer
      let declared = max(full.readableBytes, 2)
      let half = full.getSlice(at: full.readerIndex, length: full.readableBytes / 2) ?? ByteBuffer()
      let channel = context.channel
      var headers = response.headers
      headers[.contentLength] = nil
      headers[.sandboxFault] = mark
      return Response(
        status: response.status, headers: headers,
        body: .init(contentLength: declared) { writer in
          try await writer.write(half)
          // Give the half time to leave, then cut the connection before the rest.
          try await Task.sleep(for: .milliseconds(20))
          try? await channel.close()
          throw FaultError.truncated
        })
    }
  }

  /// The rule's latency; an answer instead when the sandbox shuts down meanwhile.
  static func wait(_ rule: FaultRule) async -> Response? {
    guard rule.latencyMilliseconds > 0 else { return nil }
    do {
      try await cancelWhenGracefulShutdown {
        try await Task.sleep(for: .milliseconds(rule.latencyMilliseconds))
      }
      return nil
    } catch {
      return Response.json(.simple(.serviceUnavailable, "the sandbox is shutting down"))
    }
  }

  /// A shape rule on the real answer: it fires, and counts, only when the answer has its
  /// property (a rule naming one it lacks leaves it as it is, unmarked and not counted).
  private func shape(
    _ chosen: FaultRule, _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    let response = try await next(request, context)
    let collected = CollectingWriter.Storage()
    try await response.body.write(CollectingWriter(storage: collected))
    let original = collected.buffer
    guard let body = ResponseShape.changed(Data(original.readableBytesView), rule: chosen),
      let rule = try await state.countFault(id: chosen.id)
    else { return Response(status: response.status, headers: response.headers, body: .init(byteBuffer: original)) }
    if let refusal = await Self.wait(rule) { return refusal }
    var headers = response.headers
    headers[.contentLength] = String(body.count)
    headers[.sandboxFault] = "rule \(rule.id)"
    return Response(status: response.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
  }

  /// Closes the connection with a TCP RST (SO_LINGER 0) rather than an orderly FIN.
  static func reset(_ channel: any Channel) {
    guard let provider = channel as? any SocketOptionProvider else {
      channel.close(promise: nil)
      return
    }
    provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
      channel.close(promise: nil)
    }
  }

  enum FaultError: Error {
    case connectionReset
    case truncated
  }

  /// Collects a response body (bodies here are small JSON documents).
  struct CollectingWriter: ResponseBodyWriter {
    final class Storage: @unchecked Sendable {
      var buffer = ByteBuffer()
    }
    let storage: Storage

    mutating func write(_ buffer: ByteBuffer) async throws {
      var buffer = buffer
      storage.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
  }
}

extension HTTPField.Name {
  /// On a public response that a fault rule shaped: `rule <id>` (documented in the operator
  /// contract, SandboxAdminAPI).
  static let sandboxFault = HTTPField.Name("X-Sandbox-Fault")!
  /// On a public response that the delay held back: `<milliseconds>ms`.
  static let sandboxDelay = HTTPField.Name("X-Sandbox-Delay")!
}
