/// Bytes from a raw terminal to keys: UTF-8 characters, control keys, and the escape
/// sequences of the arrow keys (CSI `ESC [` and SS3 `ESC O`, with or without parameters).
///
/// A read can end in the middle of a sequence or of a UTF-8 character; those bytes are kept
/// and finished by the next read. A lone ESC at the end of a read is the Escape key (terminals
/// send a key's sequence in one write). Bytes that cannot start anything are dropped.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []
  /// Bytes an unfinished escape sequence may hold before it is dropped as garbage.
  static let longestSequence = 32

  public init() {}

  public mutating func decode(_ input: [UInt8]) -> [Key] {
    let bytes = pending + input
    pending = []
    var keys: [Key] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x1B:
        guard index + 1 < bytes.count else {
          keys.append(.escape)
          index += 1
          continue
        }
        let introducer = bytes[index + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
          keys.append(.escape)
          index += 1
          continue
        }
        // Parameters and intermediates, then one final byte in 0x40...0x7E.
        var end = index + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else {
          // Unfinished: wait for the rest, unless it is too long to be a key.
          if end - index <= Self.longestSequence { pending = Array(bytes[index...]) }
          return keys
        }
        switch bytes[end] {
        case UInt8(ascii: "A"): keys.append(.up)
        case UInt8(ascii: "B"): keys.append(.down)
        case UInt8(ascii: "C"): keys.append(.right)
        case UInt8(ascii: "D"): keys.append(.left)
        default: break
        }
        index = end + 1
        continue
      case 0x0D, 0x0A: keys.append(.enter)
      case 0x7F, 0x08: keys.append(.backspace)
      case 0x09: keys.append(.tab)
      case 0x01...0x1A: keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
      case 0x00...0x1F: break
      case 0x80...0xBF, 0xF8...0xFF: break  // a continuation byte or no UTF-8 lead byte
      default:
        let length: Int
        switch byte {
        case 0xF0...: length = 4
        case 0xE0...: length = 3
        case 0xC0...: length = 2
        default: length = 1
        }
        guard index + length <= bytes.count else {
          pending = Array(bytes[index...])
          return keys
        }
        if let character = String(validating: bytes[index..<(index + length)], as: UTF8.self)?.first {
          keys.append(.character(character))
          index += length
        } else {
          index += 1  // not valid UTF-8: drop the lead byte and go on
        }
        continue
      }
      index += 1
    }
    return keys
  }
}
