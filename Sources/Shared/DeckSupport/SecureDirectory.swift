import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// deck keeps tokens and settings in its directories, so like ssh it refuses a directory that
/// another user could write to (group- or world-writable) or that belongs to someone else.
public enum SecureDirectory {
  /// What `DeckPaths` uses for HOME when it is not set: a relative path that `check` refuses.
  public static let missingHome = "$HOME"

  /// A new private directory (0700, by mkdtemp) under the temporary directory (`TMPDIR`),
  /// named `prefix` and six random characters: the editor's file, `deck qa run`'s scenarios.
  public static func makeTemporary(prefix: String) throws -> String {
    let base = FileManager.default.temporaryDirectory.path
    var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
    guard let made else {
      throw DeckError.failure(
        "Cannot create a private directory in \(base): \(String(cString: strerror(errno))).",
        hint: "Set TMPDIR to a directory you can write to.")
    }
    return String(cString: made)
  }

  /// Throws when `path` exists and is unsafe; a missing directory is fine (deck creates it 0700).
  public static func check(_ path: String) throws {
    guard path.hasPrefix("/") else {
      throw DeckError.configuration(
        path.hasPrefix(missingHome)
          ? "deck has no directory for its files: HOME is not set."
          : "deck's directory \(path) is not an absolute path.",
        hint:
          "Set HOME to your home directory (or set DECK_CONFIG_DIR, XDG_CONFIG_HOME, XDG_STATE_HOME and XDG_DATA_HOME to absolute paths)."
      )
    }
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return }
      throw AtomicFile.posixError("cannot inspect \(path)")
    }
    if info.st_mode & S_IFMT == S_IFLNK {
      // A symbolic link is fine if what it points to passes the same checks.
      guard stat(path, &info) == 0 else { throw AtomicFile.posixError("cannot inspect \(path)") }
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw DeckError.configuration(
        "\(path) exists but is not a directory.", hint: "Move it away: mv \(path) \(path).old")
    }
    let owner = geteuid()
    if info.st_uid != owner {
      throw DeckError.configuration(
        "Refusing to use \(path): it belongs to user id \(info.st_uid), not to you (\(owner)), so its owner could read or replace deck's files.",
        hint: "Take it over with: chown \(owner) \(path)  (or move it away and let deck create it again)")
    }
    let mode = info.st_mode & 0o777
    if mode & 0o022 != 0 {
      throw DeckError.configuration(
        "Refusing to use \(path): its mode is \(String(mode, radix: 8)), so other users can write to it.",
        hint: "Restrict it with: chmod go-w \(path)  (deck creates it with mode 700)")
    }
  }

  /// Checks the directory that holds `file` (see `check`).
  public static func checkParent(of file: String) throws {
    try check(PathText.parent(file))
  }
}
