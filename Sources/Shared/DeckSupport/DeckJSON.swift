import Foundation

/// The JSON encoder and decoder for the files deck writes itself (state, caches): indented,
/// sorted keys, unescaped slashes, ISO 8601 dates. Configured once, here.
public enum DeckJSON {
  public static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }()

  public static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()
}
