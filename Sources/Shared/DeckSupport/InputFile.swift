import Foundation

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
    let handle = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path)
    let data = handle.flatMap { handle in try? handle.read(upToCount: limit + 1) ?? Data() }
    if path != "-" { try? handle?.close() }
    let source = path == "-" ? "stdin" : path
    guard let data else { throw DeckError.usage("Cannot read \(what) \(source).", hint: hint) }
    guard data.count <= limit else { throw tooLarge(what: what, source: source, limit: limit) }
    return data
  }

  public static func tooLarge(what: String, source: String, limit: Int = limit) -> DeckError {
    DeckError.usage(
      "\(what.prefix(1).uppercased() + what.dropFirst()) (\(source)) is larger than \(limit >> 20) MB (\(limit) bytes), the most deck reads.",
      hint: "Give a smaller file; deck never writes one this large.")
  }
}
