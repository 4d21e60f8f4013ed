import Logging
import NIOPosix
import PostgresKit
import Synchronization

/// Tells this instance that some instance committed a change to the shared PostgreSQL database,
/// so that answers kept in memory (``ResponseCache``, the fault settings) are dropped: every
/// write transaction of every instance ends with `NOTIFY deck_sandbox_changes`, which PostgreSQL
/// delivers at commit, and each instance keeps one connection that listens to it.
///
/// The stamp is a counter, raised by every notification, by this instance's own commits (before
/// its write's answer is sent, so this instance reads its own writes at once), and by every
/// reconnection. While the listening connection is down there is no stamp, and nothing is kept.
/// Another instance's commit reaches this one when its notification arrives (well under a
/// millisecond on one host or network): a read through this instance in that interval may still
/// be answered as before the commit.
final class PostgresChangeFeed: Sendable {
  static let channel = "deck_sandbox_changes"
  /// The statement that ends every write transaction (and the migrations').
  static let notify = "NOTIFY \(channel)"

  private struct State {
    var counter: UInt64 = 0
    var listening = false
  }

  private let state = Mutex(State())

  /// The stamp the cached answers are kept under; nil while nobody listens.
  func stamp() -> DatabaseChangeStamp.Stamp? {
    state.withLock { $0.listening ? DatabaseChangeStamp.Stamp(words: [$0.counter]) : nil }
  }

  /// Something changed: every stamp read before is out of date.
  func changed() {
    state.withLock { $0.counter &+= 1 }
  }

  private func setListening(_ listening: Bool) {
    state.withLock {
      $0.listening = listening
      $0.counter &+= 1
    }
  }

  /// Listens on `connection` until it fails, then connects again with `connect` (a growing
  /// pause between tries, up to 5 s), until the task is cancelled; closes what it opened.
  func run(
    first connection: PostgresConnection, connect: @escaping @Sendable () async throws -> PostgresConnection
  ) async {
    var connection: PostgresConnection? = connection
    var pause = Duration.milliseconds(100)
    while !Task.isCancelled {
      if let listening = connection {
        do {
          try await listening.listen(on: Self.channel) { notifications in
            // Answers kept while nobody listened may be out of date: the counter moves on.
            self.setListening(true)
            pause = .milliseconds(100)
            for try await _ in notifications { self.changed() }
          }
        } catch {}
        setListening(false)
        try? await listening.close()
        connection = nil
      }
      guard !Task.isCancelled else { break }
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, .seconds(5))
      connection = try? await connect()
    }
    setListening(false)
    if let connection { try? await connection.close() }
  }
}
