import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a document deck is given (a file, or stdin for `-`): `prefs import`, `mbti submit
/// --answers`, the file an editor returns. At most ``limit`` bytes are read, whatever the
/// source: `yes | deck prefs import -` or a 1 GB file is refused once it passes the limit,
/// without reading the rest.
public enum InputFile {
  /// 1 MB: far above any document deck writes or reads.
  public static let limit = 1 << 20

  /// The bytes of `path` (stdin for `-`). `what` names the document in errors ("the answers
  /// file"); `hint` says what to give instead when it cannot be read.
  public static func read(_ path: String, what: String, hint: String, limit: Int = limit) throws -> Data {
    let data = bytes(of: path, upTo: limit + 1)
    let source = path == "-" ? "stdin" : path
    guard let data else { throw DeckError.usage("Cannot read \(what) \(source).", hint: hint) }
    guard data.count <= limit else { throw tooLarge(what: what, source: source, limit: limit) }
    return data
  }

  /// Up to `count` bytes of the file at `path` (stdin for `-`); nil when it cannot be read.
  public static func bytes(of path: String, upTo count: Int) -> Data? {
    let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { if path != "-" { close(fd) } }
    return read(fd, upTo: count)
  }

  /// Up to `count` bytes from `fd`, until its end (nil when reading fails).
  public static func read(_ fd: Int32, upTo count: Int) -> Data? {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while data.count < count {
      let wanted = min(buffer.count, count - data.count)
      let got = buffer.withUnsafeMutableBytes { Glibc_read(fd, $0.baseAddress, wanted) }
      if got < 0 && errno == EINTR { continue }
      guard got >= 0 else { return nil }
      if got == 0 { break }
      data.append(contentsOf: buffer[..<got])
    }
    return data
  }

  public static func tooLarge(what: String, source: String, limit: Int = limit) -> DeckError {
    DeckError.usage(
      "\(what.prefix(1).uppercased() + what.dropFirst()) (\(source)) is larger than \(limit >> 20) MB (\(limit) bytes), the most deck reads.",
      hint: "Give a smaller file; deck never writes one this large.")
  }
}

@inline(__always)
private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
  #else
    Darwin.read(fd, buffer, count)
  #endif
}
