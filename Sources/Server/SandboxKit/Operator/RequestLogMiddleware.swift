import DeckSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// Records every request in the sandbox's ``RequestLog`` once its answer is ready: the
/// outermost middleware, so that the log also has the requests refused before a route (413,
/// 405), and the time to an answer's head. Each answer carries its request id in
/// `X-Request-Id` (the client's own when it sent a usable one). Reads of the log itself are
/// not recorded: a follow would otherwise see its own polls.
struct RequestLogMiddleware: RouterMiddleware {
  let state: SandboxState

  static let requestID = HTTPField.Name("X-Request-Id")!
  /// The log's own path, whose reads are not recorded.
  static let logsPath = OperatorGuardMiddleware.prefix + "/logs"

  func handle(
    _ request: Request, context: SandboxRequestContext,
    next: (Request, SandboxRequestContext) async throws -> Response
  ) async throws -> Response {
    if RequestPath.normalized(request.uri.path) == Self.logsPath { return try await next(request, context) }
    let start = ContinuousClock.now
    let id = Self.requestID(request.headers[Self.requestID])
    var entry = RequestLog.Entry(
      sequence: 0, time: Date(), method: request.method.rawValue, path: Redactor.redact(text: request.uri.path),
      query: request.uri.query.map { String(Redactor.redact(url: "?" + $0).dropFirst()) }, status: 0,
      latencyMilliseconds: 0, user: nil, fault: nil, delay: nil, requestID: id,
      qaRun: request.headers[RequestScope.header].flatMap { QARunScope.isValid($0) ? $0 : nil })
    let bearer = Self.bearerToken(request.headers[.authorization])
    let requestBody = RequestLog.BodyCapture(contentType: request.headers[.contentType])
    entry.requestBody = requestBody
    var passed = request
    passed.body = RequestBody(asyncSequence: request.body.map { requestBody.add($0) })
    let note = Note()
    let response: Response
    do {
      response = try await Note.$current.withValue(note) { try await next(passed, context) }
    } catch {
      // A reset (a fault rule) answers nothing; other errors become their status.
      entry.status = (error as? any HTTPResponseError).map { $0.status.code } ?? (note.fault == nil ? 500 : 0)
      await record(entry, note: note, bearer: bearer, start: start)
      throw error
    }
    entry.status = response.status.code
    entry.fault = response.headers[.sandboxFault]
    entry.delay = response.headers[.sandboxDelay]
    let responseBody = RequestLog.BodyCapture(contentType: response.headers[.contentType])
    entry.responseBody = responseBody
    // Recorded before the body goes out, so that whoever got the answer finds it in the log.
    await record(entry, note: note, bearer: bearer, start: start)
    var answer = response
    answer.headers[Self.requestID] = id
    let body = response.body
    answer.body = ResponseBody(contentLength: body.contentLength) { writer in
      try await body.write(writer.map { responseBody.add($0) })
    }
    return answer
  }

  /// Adds the entry, with its latency, the fault rule the inner middleware noted and the user
  /// of a valid access token.
  private func record(_ entry: RequestLog.Entry, note: Note, bearer: String?, start: ContinuousClock.Instant) async {
    var entry = entry
    entry.latencyMilliseconds = Double((ContinuousClock.now - start) / .microseconds(1)) / 1000
    entry.fault = entry.fault ?? note.fault
    if let bearer, case .success(let claims) = await state.signer.check(bearer, now: Timestamps.unixNow()) {
      entry.user = claims.email.isEmpty ? claims.sub : claims.email
    }
    state.requestLog.append(entry)
  }

  /// The client's request id when it is 1 to 128 visible ASCII characters, else a new one.
  static func requestID(_ sent: String?) -> String {
    if let sent, (1...128).contains(sent.utf8.count), sent.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
      return sent
    }
    return UUID().uuidString.lowercased()
  }

  static func bearerToken(_ header: String?) -> String? {
    guard let header else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return parts[1].trimmingCharacters(in: .whitespaces)
  }

  /// What the inner middleware tell the log about a request: the fault rule that fired on it
  /// (also when it answers nothing to carry the `X-Sandbox-Fault` header).
  final class Note: Sendable {
    @TaskLocal static var current: Note?
    private let rule = Mutex<String?>(nil)

    var fault: String? { rule.withLock { $0 } }

    func fired(rule id: Int) { rule.withLock { $0 = "rule \(id)" } }
  }
}
