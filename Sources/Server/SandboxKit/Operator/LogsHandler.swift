import DeckSupport
import Foundation
import SandboxAdminAPI

extension AdminHandlers {
  static let defaultLogLimit = 100
  /// The longest a read of the log waits for a request (`wait`, seconds).
  static let longestLogWait = 15
  /// The largest cursor the contract takes: JSON's last exact integer (2^53 - 1).
  static let largestLogCursor = 9_007_199_254_740_991

  /// `GET /logs`: the request log (``RequestLog``), filtered; with `after` and `wait`, a long poll.
  func listLogs(_ input: SandboxAdminAPI.Operations.listLogs.Input) async throws
    -> SandboxAdminAPI.Operations.listLogs.Output
  {
    let query = input.query
    let filter: RequestLog.Filter
    switch Self.logFilter(query) {
    case .failure(let message): return .badRequest(.init(body: .json(.init(error: message.text))))
    case .success(let parsed): filter = parsed
    }
    let limit = query.limit ?? Self.defaultLogLimit
    guard (1...RequestLog.defaultCapacity).contains(limit) else {
      return .badRequest(
        .init(body: .json(.init(error: "limit must be between 1 and \(RequestLog.defaultCapacity), got \(limit)."))))
    }
    if let after = query.after, !(0...Self.largestLogCursor).contains(after) {
      return .badRequest(
        .init(body: .json(.init(error: "after must be a cursor from 0 to \(Self.largestLogCursor), got \(after)."))))
    }
    let wait = query.wait ?? 0
    guard (0...Self.longestLogWait).contains(wait) else {
      return .badRequest(
        .init(body: .json(.init(error: "wait must be between 0 and \(Self.longestLogWait) seconds, got \(wait)."))))
    }
    let log = state.requestLog
    let page =
      if let after = query.after, wait > 0 {
        await log.follow(filter, after: after, limit: limit, wait: .seconds(wait))
      } else {
        log.read(filter, after: query.after, limit: limit)
      }
    let bodies = query.bodies ?? false
    return .ok(
      .init(
        body: .json(
          .init(
            entries: page.entries.map { Self.view($0, bodies: bodies) }, next: page.cursor, capacity: log.capacity))))
  }

  struct FilterError: Error {
    var text: String
  }

  /// The filter the query asks for, or why it is not one.
  static func logFilter(_ query: SandboxAdminAPI.Operations.listLogs.Input.Query) -> Result<
    RequestLog.Filter, FilterError
  > {
    var filter = RequestLog.Filter()
    if let status = query.status {
      let lowered = status.lowercased()
      if lowered.count == 3, lowered.hasSuffix("xx"), let first = lowered.first?.wholeNumberValue,
        (1...5).contains(first)
      {
        filter.statusClass = first
      } else if let code = Int(status), (100...599).contains(code), status.count == 3 {
        filter.status = code
      } else {
        return .failure(
          .init(text: "status must be a class (1xx to 5xx) or a status from 100 to 599, got \"\(status)\"."))
      }
    }
    if let method = query.method {
      guard (1...20).contains(method.count), method.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
        return .failure(.init(text: "method must be 1 to 20 capital letters (GET, POST), got \"\(method)\"."))
      }
      filter.method = method
    }
    if let path = query.path {
      guard path.hasPrefix("/"), path.utf8.count <= 1024 else {
        return .failure(
          .init(text: "path must be a pattern that starts with / (at most 1024 bytes), like /auth/v1/**."))
      }
      filter.path = path
    }
    if let user = query.user {
      guard (1...320).contains(user.count) else {
        return .failure(.init(text: "user must be an email or a user id (1 to 320 characters)."))
      }
      filter.user = user
    }
    if let since = query.since {
      guard (1...31_536_000).contains(since) else {
        return .failure(.init(text: "since must be between 1 and 31536000 seconds, got \(since)."))
      }
      filter.since = Date(timeIntervalSinceNow: -Double(since))
    }
    return .success(filter)
  }

  static func view(_ entry: RequestLog.Entry, bodies: Bool) -> Schemas.LogEntry {
    .init(
      sequence: entry.sequence, time: entry.time, method: entry.method, path: entry.path, query: entry.query,
      status: entry.status, latencyMs: entry.latencyMilliseconds, user: entry.user, fault: entry.fault,
      delay: entry.delay, requestId: entry.requestID, qaRun: entry.qaRun,
      requestBody: bodies ? entry.requestBody?.shown : nil, responseBody: bodies ? entry.responseBody?.shown : nil)
  }
}
