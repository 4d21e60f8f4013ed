import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An advisory lock (`flock(2)`) on `<file>.lock`, held around every read-modify-write of a
/// shared file (config.yml, tokens.json, history), so that parallel deck processes never lose
/// each other's changes. The lock file itself stays empty; the lock dies with the process.
public struct FileLock: Sendable {
  public let path: String

  /// The lock for `file` (`file.lock`, next to it).
  public init(for file: String) { path = file + ".lock" }

  /// Runs `body` holding the lock, waiting for other processes as long as it takes.
  public func withLock<T>(_ body: () throws -> T) throws -> T {
    let fd = try openLockFile()
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      guard errno == EINTR else { throw AtomicFile.posixError("cannot lock \(path)") }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }

  /// Runs `body` holding the lock, polling without blocking a thread (for code that awaits
  /// while it holds the lock, such as a token refresh). Gives up after `timeout`.
  public func withLock<T>(timeout: Duration = .seconds(30), _ body: () async throws -> T) async throws -> T {
    let fd = try openLockFile()
    defer { close(fd) }
    let deadline = ContinuousClock.now + timeout
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else { throw AtomicFile.posixError("cannot lock \(path)") }
      guard ContinuousClock.now < deadline else {
        throw DeckError.failure(
          "Timed out waiting for \(path): another deck process holds it.",
          hint: "Try again; if no other deck runs, remove \(path).")
      }
      try await Task.sleep(for: .milliseconds(10))
    }
    defer { flock(fd, LOCK_UN) }
    return try await body()
  }

  private func openLockFile() throws -> Int32 {
    try AtomicFile.ensureDirectory(PathText.parent(path))
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw AtomicFile.posixError("cannot open the lock file \(path)") }
    return fd
  }
}
