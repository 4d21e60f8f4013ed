import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The REPL's history file: `$XDG_STATE_HOME/deck/history`, mode 0600, capped.
///
/// Lines are appended one `write(2)` at a time under a lock file, so two REPLs open at once
/// both keep their lines. Trimming to the cap rewrites the file atomically (temporary file,
/// then rename) under the same lock. Lines that carry a secret are never written.
public struct HistoryFile: Sendable {
  public let path: String
  public let limit: Int

  /// The largest cap deck honours (`DECK_HISTORY_SIZE` beyond it is clamped).
  public static let maxLimit = 1_000_000

  public init(path: String, limit: Int = 5000) {
    self.path = path
    self.limit = min(max(limit, 1), Self.maxLimit)
  }

  /// The cap from `DECK_HISTORY_SIZE`: a number, clamped to 1...maxLimit; anything else (or
  /// nothing) gives the default 5000.
  public static func limit(fromVariable value: String?) -> Int {
    guard let value = value?.trimming(.whitespaces), !value.isEmpty,
      value.allSatisfy({ $0.isASCII && $0.isNumber })
    else { return 5000 }
    // Int(...) is nil for a number too large for Int: that is "huge", so the maximum.
    return min(max(Int(value) ?? maxLimit, 1), maxLimit)
  }

  /// The last `limit` lines, oldest first.
  public func load() -> [String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    return Array(text.split(separator: "\n").map(String.init).suffix(limit))
  }

  /// Appends one line (newlines folded to spaces). Trims the file when it grows past the cap.
  public func append(_ line: String) throws {
    let entry = line.replacing("\n", with: " ") + "\n"
    try AtomicFile.ensureDirectory(PathText.parent(path), mode: 0o700)
    try FileLock(for: path).withLock {
      let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
      guard fd >= 0 else { throw DeckError.configuration("Cannot write the history file \(path).") }
      defer { close(fd) }
      fchmod(fd, 0o600)
      var bytes = Array(entry.utf8)
      _ = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
      var info = stat()
      // Trim only when well past the cap, so the rewrite is rare.
      if fstat(fd, &info) == 0, info.st_size > 256 * limit {
        let lines = load()
        if lines.count >= limit {
          try AtomicFile.write(Data((lines.suffix(limit).joined(separator: "\n") + "\n").utf8), to: path, mode: 0o600)
        }
      }
    }
  }
}

/// Decides which lines may be kept in history.
public enum HistoryPolicy {
  static let secretFlags: Set<String> = ["--password", "--token", "--with-token", "--secret", "--api-key"]

  /// True when the line carries a secret: a password or token flag, a JWT, `DECK_TOKEN=…`,
  /// or `auth login --with-token`.
  public static func isSecret(_ words: [String]) -> Bool {
    for word in words {
      let flag = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
      if secretFlags.contains(flag) { return true }
      if word.hasPrefix("DECK_TOKEN=") || word.contains("password=") { return true }
      if looksLikeJWT(word) { return true }
    }
    return false
  }

  static func looksLikeJWT(_ word: String) -> Bool {
    let parts = word.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 3 && word.count > 30 && parts[0].hasPrefix("eyJ")
      && parts.allSatisfy { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } }
  }
}
