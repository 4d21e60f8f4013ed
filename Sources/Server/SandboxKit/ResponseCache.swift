import Foundation
import Hummingbird
import Synchronization

/// Tells whether anything was committed to a WAL-mode SQLite database since an earlier look, by
/// any connection of any process, without a query: it reads the WAL-index header SQLite keeps at
/// the start of the database's `-shm` file (https://www.sqlite.org/walformat.html, "The WAL-Index
/// Header"), the same 48 bytes a connection reads to decide whether its cached pages are still
/// good. Every commit rewrites them (a new change counter, last frame and checksum); a checkpoint
/// does not, since it changes no content.
///
/// It reads with `pread`, not a mapping, so that a `-shm` file that another process truncates can
/// never fault this one: a short read is simply "unknown".
package final class DatabaseChangeStamp: Sendable {
  /// The header: 48 bytes, stored twice (SQLite writes the second copy, then the first).
  package struct Stamp: Equatable, Sendable {
    var words: [UInt64]
  }

  private let descriptor: Int32

  /// Nil when the database has no `-shm` file to read (not in WAL mode, or not opened yet).
  package init?(databasePath: String) {
    let descriptor = open(databasePath + "-shm", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// The current header, or nil when it cannot be trusted: a short read, a header SQLite has not
  /// initialised, or two copies that differ because a commit is writing them right now.
  package func current() -> Stamp? {
    var words = [UInt64](repeating: 0, count: 12)
    let count = words.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count == 96 else { return nil }
    // isInit is byte 12 of the header: byte 4 of the second word as it lies in memory.
    let isInitialised = withUnsafeBytes(of: words[1]) { $0[4] } != 0
    guard isInitialised, words[0..<6].elementsEqual(words[6..<12]) else { return nil }
    words.removeLast(6)
    return Stamp(words: words)
  }
}

/// Responses of routes that only read, kept while the database has not changed: the sandbox's
/// answer to a typeahead that asks the same prefixes again and again (`/api/brokerages/search`
/// under `bench/run`'s load). An entry is used only while the database's change stamp
/// (``SandboxDatabase/changeStamp()``) is the one read before the response was made, so any
/// commit (a seed, a reset, another deck process writing the same SQLite file, another instance
/// on the same PostgreSQL database) empties the cache before the next answer.
package final class ResponseCache: Sendable {
  /// Bounds: when a new answer would pass either, the cache is emptied and starts again.
  package static let maximumEntries = 1024
  package static let maximumBytes = 8 * 1024 * 1024
  /// Larger answers are never kept.
  package static let maximumBodyBytes = 64 * 1024

  private struct Entry: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: ByteBuffer
  }

  private struct Contents: Sendable {
    var stamp: DatabaseChangeStamp.Stamp?
    var entries: [String: Entry] = [:]
    var bytes = 0
    var paths: Set<String> = []
  }

  private let currentStamp: @Sendable () -> DatabaseChangeStamp.Stamp?
  private let contents = Mutex(Contents())

  /// `stamp`: the database's change stamp now; nil when unknown, and then nothing is cached.
  package init(stamp: @escaping @Sendable () -> DatabaseChangeStamp.Stamp?) {
    self.currentStamp = stamp
  }

  /// Lets GET responses of `path` (exactly, with any query) be cached.
  package func allow(path: String) {
    contents.withLock { _ = $0.paths.insert(path) }
  }

  func isAllowed(path: String) -> Bool {
    contents.withLock { $0.paths.contains(path) }
  }

  /// The database's current stamp; nil when it cannot be read, and then nothing is cached.
  func stamp() -> DatabaseChangeStamp.Stamp? {
    currentStamp()
  }

  /// The response stored under `key` while the database's stamp is `stamp`.
  func response(for key: String, stamp: DatabaseChangeStamp.Stamp) -> Response? {
    contents.withLock { contents in
      if contents.stamp != stamp {
        contents.stamp = stamp
        contents.entries.removeAll(keepingCapacity: true)
        contents.bytes = 0
        return nil
      }
      return contents.entries[key].map {
        Response(status: $0.status, headers: $0.headers, body: .init(byteBuffer: $0.body))
      }
    }
  }

  /// Stores a response made from the database as it was at `stamp` (read before the handler
  /// ran, so that a commit during the handler leaves the entry stale, never a wrong one used).
  func store(
    status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer, key: String, stamp: DatabaseChangeStamp.Stamp
  ) {
    guard body.readableBytes <= Self.maximumBodyBytes else { return }
    contents.withLock { contents in
      guard contents.stamp == stamp, contents.entries[key] == nil else { return }
      if contents.entries.count >= Self.maximumEntries || contents.bytes + body.readableBytes > Self.maximumBytes {
        contents.entries.removeAll(keepingCapacity: true)
        contents.bytes = 0
      }
      contents.entries[key] = Entry(status: status, headers: headers, body: body)
      contents.bytes += body.readableBytes
    }
  }

  /// How many responses are stored, and their bodies' bytes (for tests).
  package var count: Int { contents.withLock { $0.entries.count } }
  var bytes: Int { contents.withLock { $0.bytes } }
}

/// Answers GET requests of the paths a feature allowed from ``ResponseCache`` and stores the
/// successful answers of the rest. The innermost middleware: fault rules and the delay still
/// apply to every request.
struct ResponseCacheMiddleware<Context: RequestContext>: RouterMiddleware {
  let cache: ResponseCache

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard request.method == .get, cache.isAllowed(path: request.uri.path), let stamp = cache.stamp() else {
      return try await next(request, context)
    }
    // The generated handlers answer by the request's Accept header as well as its URI.
    let key = request.uri.string + "\n" + (request.headers[.accept] ?? "")
    if let cached = cache.response(for: key, stamp: stamp) { return cached }
    let response = try await next(request, context)
    guard response.status == .ok else { return response }
    let collector = BodyCollector()
    try await response.body.write(collector)
    guard let (body, trailers) = collector.result, trailers == nil else {
      return Response(status: response.status, headers: response.headers, body: .init(byteBuffer: collector.buffer))
    }
    cache.store(status: response.status, headers: response.headers, body: body, key: key, stamp: stamp)
    return Response(status: response.status, headers: response.headers, body: .init(byteBuffer: body))
  }
}

/// A response body writer that keeps what is written.
private final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
  // Used by one request's task only, in order.
  var buffer = ByteBuffer()
  var result: (ByteBuffer, HTTPFields?)?

  func write(_ buffer: ByteBuffer) async throws {
    var buffer = buffer
    self.buffer.writeBuffer(&buffer)
  }

  func finish(_ trailingHeaders: HTTPFields?) async throws {
    result = (buffer, trailingHeaders)
  }
}
