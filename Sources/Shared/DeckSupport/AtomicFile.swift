import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes files so that readers see either the old or the new content, never a torn one:
/// the bytes go to a temporary file in the same directory, are flushed to disk, and the
/// temporary file is renamed over the target. A crash or Ctrl-C leaves at most a stray
/// `.tmp` file behind, never a half-written config, token or state file.
///
/// Only a regular file (or a name with nothing behind it) is replaced. What is already at the
/// path decides, as a shell's `>` would (`WriteTarget`): a FIFO or a character device
/// (`/dev/null`, `/dev/stdout`, a terminal, `>(…)`) is written in place and never renamed
/// over; a symbolic link is followed as editors follow it, so the file it points at gets the
/// new content and the link stays; a link to nothing, a directory, a block device or a socket
/// is refused.
public enum AtomicFile {
  public static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
    switch try WriteTarget.classify(path) {
    case .replace(let target): try replace(target, with: data, mode: mode)
    case .inPlace: try writeInPlace(data, to: path)
    }
  }

  /// The temporary file, fsync and rename: `path` is a regular file or nothing.
  private static func replace(_ path: String, with data: Data, mode: mode_t) throws {
    // A bare file name lives in the working directory, and so does its temporary file.
    let directory = PathText.parent(path).isEmpty ? "." : PathText.parent(path)
    let temporary =
      "\(directory)/.\(PathText.lastComponent(path)).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard fd >= 0 else { throw posixError("cannot create \(temporary)") }
    var closed = false
    defer {
      if !closed { close(fd) }
      unlink(temporary)  // no-op after a successful rename
    }
    // The umask may have narrowed the mode given to open(2); set it exactly.
    guard fchmod(fd, mode) == 0 else { throw posixError("cannot set the mode of \(temporary)") }
    try writeAll(data, to: fd, named: temporary)
    guard fsync(fd) == 0 else { throw posixError("cannot flush \(temporary)") }
    close(fd)
    closed = true
    guard rename(temporary, path) == 0 else { throw posixError("cannot replace \(path)") }
    // The rename lives in the directory: flush it too, or a power cut can bring back the old file.
    try syncDirectory(directory)
  }

  /// Writes to the FIFO or character device at `path` itself (a FIFO waits for its reader, as
  /// a shell's redirection does).
  private static func writeInPlace(_ data: Data, to path: String) throws {
    let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else { throw posixError("cannot open \(path)") }
    defer { close(fd) }
    try writeAll(data, to: fd, named: path)
  }

  private static func writeAll(_ data: Data, to fd: Int32, named name: String) throws {
    try data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        guard let base = buffer.baseAddress else { return }
        let written = Glibc_write(fd, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw posixError("cannot write \(name)")
        }
        guard written > 0 else { throw DeckError.configuration("cannot write \(name): nothing was written.") }
        offset += written
      }
    }
  }

  /// Flushes a directory's entries (after a rename in it) to disk.
  public static func syncDirectory(_ directory: String) throws {
    let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw posixError("cannot open \(directory)") }
    defer { close(fd) }
    // Some file systems cannot sync a directory (EINVAL); the data itself is already on disk.
    guard fsync(fd) == 0 || errno == EINVAL else { throw posixError("cannot flush \(directory)") }
  }

  /// Creates one of deck's directories (and its parents) with the given mode if it does not
  /// exist; refuses one that other users could write to (see `SecureDirectory`).
  public static func ensureDirectory(_ path: String, mode: mode_t = 0o700) throws {
    try SecureDirectory.check(path)
    var isDirectory = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory else {
        throw DeckError.configuration("\(path) exists but is not a directory.")
      }
      return
    }
    do {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true,
        attributes: [.posixPermissions: Int(mode)])
    } catch {
      throw DeckError.configuration("Cannot create the directory \(path): \(error)")
    }
  }

  public static func posixError(_ what: String) -> DeckError {
    DeckError.configuration("\(what): \(String(cString: strerror(errno))).")
  }
}

@inline(__always)
private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
  #else
    Darwin.write(fd, buffer, count)
  #endif
}
