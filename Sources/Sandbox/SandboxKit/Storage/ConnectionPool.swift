/// A fixed set of connections handed out one at a time, in order of asking: a caller that finds
/// none idle waits for the next one given back.
actor ConnectionPool<Connection: Sendable> {
  private var idle: [Connection]
  private var waiting: [CheckedContinuation<Connection, Never>] = []

  init(_ connections: [Connection]) {
    idle = connections
  }

  /// Runs `body` with a connection of its own, given back afterwards whatever happens.
  nonisolated func with<T: Sendable>(_ body: (Connection) async throws -> T) async throws -> T {
    let connection = await take()
    do {
      let result = try await body(connection)
      await give(connection)
      return result
    } catch {
      await give(connection)
      throw error
    }
  }

  private func take() async -> Connection {
    if let connection = idle.popLast() { return connection }
    return await withCheckedContinuation { waiting.append($0) }
  }

  private func give(_ connection: Connection) {
    if waiting.isEmpty {
      idle.append(connection)
    } else {
      waiting.removeFirst().resume(returning: connection)
    }
  }

  /// Every connection, once all are idle (for closing).
  func drain(count: Int) async -> [Connection] {
    var all: [Connection] = []
    while all.count < count { all.append(await take()) }
    return all
  }
}
