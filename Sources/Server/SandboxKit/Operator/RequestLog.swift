import DeckSupport
import Foundation
import NIOCore
import ServiceLifecycle
import Synchronization

/// The requests this server answered lately, for `deck sandbox logs`: a ring of the last
/// ``capacity``, each with a sequence number that only grows (the `after` cursor of a follow).
/// Each instance keeps its own, in memory; a restart starts empty.
package final class RequestLog: Sendable {
  /// The most requests kept (the oldest go first).
  package static let defaultCapacity = 10_000

  /// One request as the log keeps it. Nothing in it is a secret: the user is named by email
  /// (or id), never by token; the query is redacted; bodies are kept only as their first
  /// ``BodyCapture/limit`` bytes of text, redacted when read. An entry is added when the answer
  /// is ready, before its body is written: the body is noted as it streams.
  package struct Entry: Sendable {
    package var sequence: Int
    package var time: Date
    package var method: String
    package var path: String
    package var query: String?
    package var status: Int
    /// From the request's head to its answer's head (the answer's body streams after).
    package var latencyMilliseconds: Double
    package var user: String?
    package var fault: String?
    package var delay: String?
    package var requestID: String
    package var qaRun: String?
    package var requestBody: BodyCapture?
    package var responseBody: BodyCapture?
  }

  /// What the log keeps of a body, as it streams through: the first ``limit`` bytes when it is
  /// text (JSON or `text/plain`), and the size of any body.
  package final class BodyCapture: Sendable {
    static let limit = 2048
    private let contentType: String?
    private let keepsText: Bool
    private let state = Mutex<(prefix: Data, total: Int)>((Data(), 0))

    init(contentType: String?) {
      self.contentType = contentType
      keepsText = Self.isText(contentType)
    }

    /// Notes a part of the body, and passes it on.
    func add(_ buffer: ByteBuffer) -> ByteBuffer {
      state.withLock { state in
        state.total += buffer.readableBytes
        let room = Self.limit - state.prefix.count
        if keepsText, room > 0 { state.prefix.append(contentsOf: buffer.readableBytesView.prefix(room)) }
      }
      return buffer
    }

    /// Whether a body of this type is kept as text (other bodies, images included, never are).
    static func isText(_ contentType: String?) -> Bool {
      guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
      else { return false }
      return type == "application/json" || type.hasSuffix("+json") || type == "text/plain"
    }

    /// The body as the log shows it: redacted text as `--trace=body` shows it, else
    /// `<n bytes TYPE>`; nil for an empty body.
    var shown: String? {
      let (prefix, total) = state.withLock { $0 }
      guard total > 0 else { return nil }
      guard keepsText, Self.isUTF8(prefix, cut: prefix.count < total) else {
        let type = contentType.map { TerminalText.sanitize(String($0.prefix(100))) } ?? "no content type"
        return "<\(total) bytes \(type)>"
      }
      return Redactor.redact(text: Redactor.redact(bodyPrefix: prefix, totalBytes: total))
    }

    /// Whether the bytes are UTF-8 text; when `cut` short, a character the cut split counts.
    static func isUTF8(_ bytes: Data, cut: Bool) -> Bool {
      if String(validating: bytes, as: UTF8.self) != nil { return true }
      guard cut else { return false }
      return (1...3).contains { String(validating: bytes.dropLast($0), as: UTF8.self) != nil }
    }
  }

  /// Which entries a reader wants (every field optional: nil matches all).
  package struct Filter: Sendable {
    package var statusClass: Int?
    package var status: Int?
    package var method: String?
    package var path: String?
    package var user: String?
    package var since: Date?

    func matches(_ entry: Entry) -> Bool {
      if let status, entry.status != status { return false }
      if let statusClass, entry.status / 100 != statusClass { return false }
      if let method, entry.method != method { return false }
      if let path, !FaultPattern.matches(pattern: path, path: entry.path) { return false }
      if let user, entry.user?.lowercased() != user.lowercased() { return false }
      if let since, entry.time < since { return false }
      return true
    }
  }

  private struct Ring {
    var entries: [Entry] = []
    /// Where the next entry goes once the ring is full (the oldest entry's index).
    var start = 0
    var nextSequence = 1

    /// The index in ``entries`` of the `position`th entry, oldest first.
    func index(_ position: Int) -> Int { (start + position) % entries.count }
  }

  package let capacity: Int
  private let ring = Mutex(Ring())

  package init(capacity: Int = RequestLog.defaultCapacity) {
    self.capacity = max(1, capacity)
  }

  /// Adds a request (its sequence number is assigned here).
  func append(_ entry: Entry) {
    ring.withLock { ring in
      var entry = entry
      entry.sequence = ring.nextSequence
      ring.nextSequence += 1
      if ring.entries.count < capacity {
        ring.entries.append(entry)
      } else {
        ring.entries[ring.start] = entry
        ring.start = (ring.start + 1) % capacity
      }
    }
  }

  /// The sequence number of the newest entry (0 when there is none).
  package var newest: Int { ring.withLock { $0.nextSequence - 1 } }

  /// The entries that match, oldest first: after `after`, the first `limit` of them (a follow
  /// loses none); without it, the last `limit`. Also the cursor for the next read: the last
  /// entry returned after `after`, else the newest entry (matching or not).
  package func read(_ filter: Filter, after: Int?, limit: Int) -> (entries: [Entry], cursor: Int) {
    ring.withLock { ring in
      let newest = ring.nextSequence - 1
      if let after {
        var found: [Entry] = []
        // The entries after `after` are the newest `newest - after` ones (all of them when
        // `after` is past the newest: a cursor from before this server started).
        let count = ring.entries.count
        let fresh = after > newest ? count : min(count, newest - after)
        for position in (count - fresh)..<count {
          let entry = ring.entries[ring.index(position)]
          guard filter.matches(entry) else { continue }
          found.append(entry)
          if found.count == limit { return (found, entry.sequence) }
        }
        return (found, newest)
      }
      var found: [Entry] = []
      for position in stride(from: ring.entries.count - 1, through: 0, by: -1) {
        let entry = ring.entries[ring.index(position)]
        guard filter.matches(entry) else { continue }
        found.append(entry)
        if found.count == limit { break }
      }
      return (found.reversed(), newest)
    }
  }

  /// ``read(_:after:limit:)`` after `after`, waiting up to `wait` for an entry that matches
  /// when there is none yet (a long poll). A graceful shutdown, or the task's cancellation,
  /// ends the wait with what there is.
  package func follow(_ filter: Filter, after: Int, limit: Int, wait: Duration) async -> (
    entries: [Entry], cursor: Int
  ) {
    let deadline = ContinuousClock.now + wait
    var page = read(filter, after: after, limit: limit)
    while page.entries.isEmpty {
      if ContinuousClock.now >= deadline { return page }
      do {
        // Polled: the ring is in memory, and a new request is shown within this interval.
        try await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(50)) }
      } catch {
        return page
      }
      // Read again only when something came meanwhile.
      if newest != page.cursor { page = read(filter, after: page.cursor, limit: limit) }
    }
    return page
  }
}
