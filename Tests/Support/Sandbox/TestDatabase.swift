import DeckCore
import Foundation
import Synchronization

/// The engine the sandbox tests run on. `DECK_TEST_DATABASE=postgres` runs them on PostgreSQL:
/// a private cluster (scripts/pg-cluster) that the test process starts on first use and that
/// stops when the process exits, with a database of its own for every SQLite path a test names.
/// Unset (or `sqlite`), they run on SQLite files, as deck's own sandbox does.
package enum TestDatabase {
  package static let isPostgreSQL = ProcessInfo.processInfo.environment["DECK_TEST_DATABASE"] == "postgres"

  /// What a test's `SandboxOptions(databasePath:)` opens: the path itself on SQLite; on
  /// PostgreSQL the URL of a database named after the path (the same path, the same database:
  /// a test that opens a path again finds its data).
  package static func location(for path: String) -> String {
    guard isPostgreSQL else { return path }
    return database(named: "t_" + hash(path))
  }

  /// A new, empty PostgreSQL database's URL (on the test cluster).
  package static func database(named name: String) -> String {
    let cluster = Self.cluster
    do {
      return try run([script, "--createdb", cluster, name]).trimmingCharacters(in: .whitespacesAndNewlines)
    } catch {
      fatalError("Cannot create the test database \(name): \(error)")
    }
  }

  /// The cluster's URL (its `postgres` database), started on first use.
  package static var cluster: String {
    started.withLock { url in
      if let url { return url }
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "deck-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      ).path
      do {
        let started = try run([script, directory, "--watch", String(getpid())])
          .trimmingCharacters(in: .whitespacesAndNewlines)
        url = started
        return started
      } catch {
        fatalError("Cannot start the PostgreSQL test cluster (scripts/pg-cluster): \(error)")
      }
    }
  }

  private static let started = Mutex<String?>(nil)

  private static var script: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/pg-cluster").path
  }

  private struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `bash ARGUMENTS` and returns its stdout. posix_spawn and waitpid, not Foundation's
  /// Process: its exit is reported on a dispatch thread, and tests calling this from both of
  /// the cooperative pool's threads at once left none to report it.
  private static func run(_ arguments: [String]) throws -> String {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("deck-pg-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let (output, errors) = (scratch.appendingPathComponent("out").path, scratch.appendingPathComponent("err").path)
    let pid = try LocalProcess.spawnChild(
      "/bin/bash", arguments: arguments, environment: ProcessInfo.processInfo.environment, input: "/dev/null",
      output: output, errors: errors)
    var status = LocalProcess.exitStatus(pid)
    while status == nil {
      usleep(10_000)
      status = LocalProcess.exitStatus(pid)
    }
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    guard status == 0 else {
      throw Failed(
        description: (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "exit \(String(describing: status))")
    }
    return text
  }

  /// FNV-1a, 64 bits, as hex: a stable database name for a path.
  private static func hash(_ text: String) -> String {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
    return String(value, radix: 16)
  }
}
