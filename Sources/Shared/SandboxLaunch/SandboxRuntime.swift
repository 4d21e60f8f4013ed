import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The runtime directory where sandbox servers of this user leave their records (0700), shared
/// by deck and the server program: the local sandbox's record (``LocalSandboxRecord``, deck
/// starts that server) and the record of each `deck sandbox serve`, by port, from which
/// `deck env add NAME --sandbox URL` takes the admin token of the server at URL.
public enum SandboxRuntime {
  /// `$XDG_RUNTIME_DIR/deck`, else `<tmp>/deck-<uid>`.
  public static func directory(environment: [String: String]) -> String {
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/deck" }
    let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    return (temporary.hasSuffix("/") ? temporary : temporary + "/") + "deck-\(geteuid())"
  }

  /// The record a `deck sandbox serve` listening on `port` writes while it runs (a
  /// ``LocalSandboxRecord``, mode 0600: it holds the admin token).
  public static func servedRecordPath(directory: String, port: Int) -> String {
    directory + "/served-\(port).json"
  }

  /// Removes the records of served sandboxes that no longer run (a `deck sandbox serve` killed
  /// with SIGKILL cannot remove its own): `deck sandbox serve` sweeps them before it writes its
  /// record, so they do not pile up in the runtime directory. A record whose process runs, or
  /// that cannot be read, stays.
  public static func removeStaleServedRecords(directory: String) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for name in names where name.hasPrefix("served-") && name.hasSuffix(".json") {
      let path = directory + "/" + name
      guard let record = LocalSandboxRecord.read(path), record.pid > 0 else { continue }
      let alive = kill(record.pid, 0) == 0 || errno == EPERM
      if !alive { unlink(path) }
    }
  }

  /// Creates the directory 0700, or checks that it is private and makes it so.
  public static func ensurePrivateDirectory(_ path: String) throws {
    try AtomicFile.ensureDirectory(path, mode: 0o700)
    var info = stat()
    guard stat(path, &info) == 0 else { throw AtomicFile.posixError("cannot inspect \(path)") }
    if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
      throw AtomicFile.posixError("cannot make \(path) private (chmod 700)")
    }
  }
}
