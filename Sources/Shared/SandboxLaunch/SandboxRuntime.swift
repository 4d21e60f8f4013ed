import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The runtime directory where sandbox servers of this user leave their records (0700), shared
/// by deck and the server program: the local sandbox's record (``LocalSandboxRecord``, deck
/// starts that server) and the record of each `deck sandbox serve`, by address and port, from
/// which `deck env add NAME --sandbox URL` takes the admin token of the server at URL.
///
/// Nothing in it is read before the directory is checked: a real directory (not a link), owned
/// by this user (the effective uid), with no group or other bits. Another user who made
/// `/tmp/deck-<uid>` first cannot plant a record there: deck then uses a private directory under
/// its state directory instead, and says so once.
public enum SandboxRuntime {
  /// `$XDG_RUNTIME_DIR/deck`, else `<tmp>/deck-<uid>`: where records go when that is private.
  public static func preferredDirectory(environment: [String: String]) -> String {
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/deck" }
    let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    return (temporary.hasSuffix("/") ? temporary : temporary + "/") + "deck-\(geteuid())"
  }

  /// `$XDG_STATE_HOME/deck/run`, else `~/.local/state/deck/run`: where records go when the
  /// preferred directory belongs to someone else.
  public static func fallbackDirectory(environment: [String: String]) -> String {
    DeckPaths(environment: environment).stateDirectory + "/run"
  }

  /// The runtime directory, created 0700 if missing and checked before anything in it is read:
  /// the preferred one, or the fallback when the preferred one is not this user's (`note` is
  /// told once, when the fallback is made). Throws when neither can be used.
  public static func directory(environment: [String: String], note: (String) -> Void = { _ in }) throws -> String {
    let preferred = preferredDirectory(environment: environment)
    switch try claim(preferred) {
    case .ready: return preferred
    case .foreign(let reason):
      let fallback = fallbackDirectory(environment: environment)
      let existed = access(fallback, F_OK) == 0
      switch try claim(fallback) {
      case .ready:
        if !existed {
          note(
            "deck keeps its sandbox records in \(fallback): \(preferred) \(reason), so it is not safe to use (another user may have made it first)."
          )
        }
        return fallback
      case .foreign(let fallbackReason):
        throw DeckError.configuration(
          "Neither \(preferred) nor \(fallback) is private to you: \(preferred) \(reason), \(fallback) \(fallbackReason).",
          hint:
            "Move \(fallback) away (deck creates it again, mode 700), or set XDG_RUNTIME_DIR to a directory of yours.")
      }
    }
  }

  /// What a runtime directory is to this user.
  enum Claim {
    /// Private: this user's directory, mode 0700 (made so).
    case ready
    /// Someone else's, or no directory: why, as a message says it.
    case foreign(String)
  }

  /// Creates `path` 0700 if it is missing, then checks it with `lstat` (a symbolic link is not
  /// followed: it is refused) and takes away group and other bits of a directory that is ours.
  static func claim(_ path: String) throws -> Claim {
    // A missing parent ($XDG_RUNTIME_DIR, the state directory) is made as deck's own directories are.
    if access(PathText.parent(path), F_OK) != 0 { try AtomicFile.ensureDirectory(PathText.parent(path)) }
    if mkdir(path, 0o700) != 0, errno != EEXIST {
      throw AtomicFile.posixError("cannot create the directory \(path)")
    }
    var info = stat()
    guard lstat(path, &info) == 0 else { throw AtomicFile.posixError("cannot inspect \(path)") }
    guard info.st_mode & S_IFMT == S_IFDIR else { return .foreign("is not a directory") }
    guard info.st_uid == geteuid() else { return .foreign("belongs to user id \(info.st_uid)") }
    if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
      throw AtomicFile.posixError("cannot make \(path) private (chmod 700)")
    }
    return .ready
  }

  /// The record a `deck sandbox serve` listening on `host:port` writes while it runs (a
  /// ``LocalSandboxRecord``, mode 0600: it holds the admin token). Keyed by address and port:
  /// a server on `[::1]:8787` is not one on `127.0.0.1:8787`.
  public static func servedRecordPath(directory: String, host: String, port: Int) -> String {
    directory + "/served-\(host)-\(port).json"
  }

  /// Removes the records of served sandboxes that no longer run (a `deck sandbox serve` killed
  /// with SIGKILL cannot remove its own): `deck sandbox serve` sweeps them before it writes its
  /// record, so they do not pile up in the runtime directory. A record whose server runs, or
  /// that cannot be read, stays.
  public static func removeStaleServedRecords(directory: String) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for name in names where name.hasPrefix("served-") && name.hasSuffix(".json") {
      let path = directory + "/" + name
      guard let record = LocalSandboxRecord.read(path) else { continue }
      if !record.serverRuns { unlink(path) }
    }
  }
}
