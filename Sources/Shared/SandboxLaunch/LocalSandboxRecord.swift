import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a sandbox server that deck started on demand writes about itself once it listens, in
/// the runtime directory (mode 0600, written atomically): how to reach it, who it is, and
/// when it stops by itself. deck reads it to reuse the server, and removes it with the server.
public struct LocalSandboxRecord: Codable, Sendable, Equatable {
  /// The server's process id.
  public var pid: Int32
  /// Where it listens: http://127.0.0.1:PORT.
  public var url: String
  /// The operator endpoints' bearer token (the database's).
  public var adminToken: String
  /// The SQLite database it serves.
  public var database: String
  /// When it started listening, in seconds since 1970.
  public var startedAt: Double
  /// Seconds without a request after which it exits; 0: never.
  public var idleTimeout: Int
  /// The identity of the server program that deck started (``ProgramIdentity``): a server of
  /// another build is replaced.
  public var build: String

  public init(
    pid: Int32, url: String, adminToken: String, database: String, startedAt: Double, idleTimeout: Int, build: String
  ) {
    self.pid = pid
    self.url = url
    self.adminToken = adminToken
    self.database = database
    self.startedAt = startedAt
    self.idleTimeout = idleTimeout
    self.build = build
  }

  /// The record at `path`; nil when there is none or it cannot be read (a torn file cannot
  /// exist: it is written atomically).
  public static func read(_ path: String) -> LocalSandboxRecord? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return try? JSONDecoder().decode(LocalSandboxRecord.self, from: data)
  }

  /// Writes the record atomically with mode 0600 (it holds the admin token).
  public func write(to path: String) throws {
    try AtomicFile.write(try DeckJSON.encoder.encode(self), to: path, mode: 0o600)
  }
}

/// Names a build of a program by its file: size, modification time and inode. A new build or
/// install of deck-sandbox changes it, so the server it started before is replaced. One
/// `stat`, since every command in the default environment asks (FileManager's attributes cost
/// about ten times as much).
public enum ProgramIdentity {
  public static func of(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let modified = info.st_mtimespec
    #else
      let modified = info.st_mtim
    #endif
    // Wrapping arithmetic: a file's times are input, and an absurd one must not trap.
    let microseconds = Int64(modified.tv_sec) &* 1_000_000 &+ Int64(modified.tv_nsec) / 1000
    return "\(info.st_size)-\(microseconds)-\(info.st_ino)"
  }
}
