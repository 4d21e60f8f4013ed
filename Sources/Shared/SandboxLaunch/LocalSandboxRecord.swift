import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a sandbox server that deck started on demand (or a `deck sandbox serve`) writes about
/// itself once it listens, in the runtime directory (mode 0600, written atomically): how to
/// reach it, who it is, and when it stops by itself. deck reads it to reuse the server, and
/// removes it with the server.
public struct LocalSandboxRecord: Codable, Sendable, Equatable {
  /// The server's process id.
  public var pid: Int32
  /// When that process started (``ProcessStart``): a pid another process has taken since the
  /// server ended has another start, so deck never signals it. nil in records of older servers,
  /// and where the system does not tell: deck then signals nothing.
  public var processStart: UInt64?
  /// Where it listens: `http://127.0.0.1:PORT` or `http://[::1]:PORT` (``read`` refuses others).
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
    pid: Int32, processStart: UInt64?, url: String, adminToken: String, database: String, startedAt: Double,
    idleTimeout: Int, build: String
  ) {
    self.pid = pid
    self.processStart = processStart
    self.url = url
    self.adminToken = adminToken
    self.database = database
    self.startedAt = startedAt
    self.idleTimeout = idleTimeout
    self.build = build
  }

  /// The loopback address and port of ``url``: `127.0.0.1` or `::1`.
  public var address: LoopbackAddress? { LoopbackAddress(url: url) }

  /// Whether the server that wrote the record still runs: its pid is alive and started when
  /// the record says (so it is not another process that took the pid since).
  public var serverRuns: Bool {
    guard let processStart else { return false }
    return ProcessStart.of(pid) == processStart
  }

  /// The record at `path`, read only when the file is this user's: a regular file (a link is
  /// not followed) owned by the effective uid, with no group or other bits, under 64 KB, naming
  /// a loopback URL. nil otherwise, and when there is none or it cannot be read (a torn file
  /// cannot exist: it is written atomically).
  public static func read(_ path: String) -> LocalSandboxRecord? {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
      info.st_mode & 0o077 == 0, info.st_size < 65_536
    else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
    var count = 0
    while count < bytes.count {
      let read = bytes.withUnsafeMutableBufferPointer { buffer in
        systemRead(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
      }
      if read < 0, errno == EINTR { continue }
      guard read > 0 else { break }
      count += read
    }
    guard let record = try? JSONDecoder().decode(LocalSandboxRecord.self, from: Data(bytes[..<count])),
      record.address != nil
    else { return nil }
    return record
  }

  /// Writes the record atomically with mode 0600 (it holds the admin token).
  public func write(to path: String) throws {
    try AtomicFile.write(try DeckJSON.encoder.encode(self), to: path, mode: 0o600)
  }
}

#if canImport(Glibc)
  private let systemRead = Glibc.read
#elseif canImport(Darwin)
  private let systemRead = Darwin.read
#endif

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
