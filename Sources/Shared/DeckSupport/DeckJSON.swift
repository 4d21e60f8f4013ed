import DeckValues
import FoundationEssentials

/// deck's JSON, configured once, here: sorted keys, unescaped slashes, ISO 8601 dates. What
/// commands print (`--json`, `--jq`, and through JSON `--format yaml|csv`) and the files deck
/// writes itself (tokens, state) all go through it.
public enum DeckJSON {
  /// Indented: files deck writes, and `--json` on a terminal.
  public static let encoder = makeEncoder(indented: true)

  /// One line: `--json` into a pipe, JSON Lines, and the input of `--jq`.
  public static let compactEncoder = makeEncoder(indented: false)

  /// Reads what the encoders write. Dates may also be numbers (seconds since 1970), as token
  /// files written by earlier versions of deck have them.
  public static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
      let text = try container.decode(String.self)
      if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
      if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\"\(text)\" is not an ISO 8601 date-time")
    }
    return decoder
  }()

  private static func makeEncoder(indented: Bool) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if indented { encoder.outputFormatting.insert(.prettyPrinted) }
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }
}

extension JSONValue {
  /// The tree of `value` as `DeckJSON` encodes it (keys sorted), so that YAML and CSV show
  /// exactly the data `--json` shows.
  public init<Value: Encodable>(encoding value: Value) throws {
    self = try DeckJSON.decoder.decode(JSONValue.self, from: DeckJSON.compactEncoder.encode(value))
  }

  /// The value as one line of `DeckJSON` (for a CSV cell that holds a list or an object).
  public var compactJSON: String {
    (try? DeckJSON.compactEncoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  /// Whether the bytes are one JSON value (of any type).
  public static func isJSON(_ data: Data) -> Bool {
    (try? JSONDecoder().decode(JSONValue.self, from: data)) != nil
  }
}
