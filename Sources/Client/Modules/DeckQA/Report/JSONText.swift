import DeckSupport
import FoundationEssentials

/// JSON string literals, written by deck's one JSON encoder.
enum JSONText {
  static func quoted(_ text: String) -> String {
    (try? DeckJSON.compactEncoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
  }
}
