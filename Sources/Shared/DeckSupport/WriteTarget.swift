#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `AtomicFile.write` does with what is already at a path, decided before anything is
/// written: a regular file (or nothing) is replaced by a rename; a FIFO or a character device
/// is written in place, so `/dev/null`, `/dev/full`, `/dev/stdout` or a FIFO some reader holds
/// stay what they are; a symbolic link is followed (the file it points at is the target, as
/// editors do it); anything else is refused with the reason.
public enum WriteTarget: Equatable, Sendable {
  /// Write a temporary file beside this regular file (or free name) and rename it over it.
  case replace(String)
  /// Open the path for writing and write to it as it is.
  case inPlace

  public static func classify(_ path: String) throws -> WriteTarget {
    var link = stat()
    guard lstat(path, &link) == 0 else {
      if errno == ENOENT { return .replace(path) }
      throw AtomicFile.posixError("cannot look at \(path)")
    }
    guard link.st_mode & S_IFMT == S_IFLNK else { return try kind(link.st_mode, path: path) }
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT || errno == ELOOP {
        throw DeckError.configuration(
          "Not writing \(path): it is a symbolic link to nothing, and deck does not create files through links.",
          hint: "Give the path the link should point at, or remove the link.")
      }
      throw AtomicFile.posixError("cannot follow the symbolic link \(path)")
    }
    guard info.st_mode & S_IFMT == S_IFREG else { return try kind(info.st_mode, path: path) }
    // A regular file behind links: replace that file, in its own directory, and keep the links.
    guard let resolved = realpath(path, nil) else {
      throw AtomicFile.posixError("cannot follow the symbolic link \(path)")
    }
    defer { free(resolved) }
    return .replace(String(cString: resolved))
  }

  private static func kind(_ mode: mode_t, path: String) throws -> WriteTarget {
    switch mode & S_IFMT {
    case S_IFREG: return .replace(path)
    case S_IFIFO, S_IFCHR: return .inPlace
    case S_IFDIR:
      throw DeckError.configuration(
        "Not writing \(path): it is a directory.",
        hint: "Give a file name inside it, e.g. \(PathText.join(path, "out"))")
    default:
      throw DeckError.configuration(
        "Not writing \(path): it is not a regular file, a FIFO or a character device (a block device or a socket).",
        hint: "Give the path of a regular file.")
    }
  }
}
