/// A fixed set of connections handed out one at a time, in order of asking: a caller that finds
/// none idle waits for the next one given back.
actor ConnectionPool<Connection: Sendable> {
  private var idle: [Connection]
  private var waiting: [CheckedContinuation<Connection?, Never>] = []
  private var lent = 0
  private var closing = false
  private var drained: CheckedContinuation<Void, Never>?

  init(_ connections: [Connection]) {
    idle = connections
  }

  /// Runs `body` with a connection of its own, given back afterwards whatever happens.
  nonisolated func with<T: Sendable>(_ body: (Connection) async throws -> T) async throws -> T {
    guard let connection = await take() else { throw ConnectionPoolClosed() }
    do {
      let result = try await body(connection)
      await give(connection)
      return result
    } catch {
      await give(connection)
      throw error
    }
  }

  private func take() async -> Connection? {
    guard !closing else { return nil }
    if let connection = idle.popLast() {
      lent += 1
      return connection
    }
    // A connection handed to a waiter stays lent (see give).
    return await withCheckedContinuation { waiting.append($0) }
  }

  private func give(_ connection: Connection) {
    if !closing, !waiting.isEmpty {
      waiting.removeFirst().resume(returning: connection)
      return
    }
    lent -= 1
    idle.append(connection)
    if closing, lent == 0 {
      drained?.resume()
      drained = nil
    }
  }

  /// Refuses new work, waits for the connections in use, and returns them all (for closing).
  /// Once only: a second call returns none.
  func close() async -> [Connection] {
    guard !closing else { return [] }
    closing = true
    for waiter in waiting { waiter.resume(returning: nil) }
    waiting.removeAll()
    if lent > 0 { await withCheckedContinuation { drained = $0 } }
    defer { idle.removeAll() }
    return idle
  }
}

/// Work asked of a database that is closed.
struct ConnectionPoolClosed: Error, CustomStringConvertible {
  var description: String { "the sandbox database is closed" }
}
