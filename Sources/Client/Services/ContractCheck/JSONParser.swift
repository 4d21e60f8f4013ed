import DeckValues

/// Why a body is not JSON, and where.
struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  let message: String
  /// The byte offset of the problem.
  let offset: Int

  var description: String { "\(message) at byte \(offset)" }
}

/// A strict RFC 8259 parser over bytes from the network: it keeps booleans and numbers apart,
/// keeps numbers as written (no overflow), rejects invalid UTF-8, and limits nesting so no input
/// can exhaust the stack.
struct JSONParser {
  static let maximumDepth = 256

  private let bytes: [UInt8]
  private var index = 0

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    // A UTF-8 byte order mark is tolerated.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipWhitespace()
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.error("unexpected data after the JSON value") }
    return value
  }

  private func error(_ message: String) -> JSONParseError {
    JSONParseError(message: message, offset: index)
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
  }

  private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
    guard let byte = current else { throw error("unexpected end of input") }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
    case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
    case UInt8(ascii: "n"): try expectLiteral("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("unexpected character")
    }
  }

  private mutating func expectLiteral(_ literal: String) throws(JSONParseError) {
    for expected in literal.utf8 {
      guard current == expected else { throw error("invalid literal (expected \(literal))") }
      index += 1
    }
  }

  private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
    index += 1
    var object = JSONObject()
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      return .object(object)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
      let key = try parseString()
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
      index += 1
      skipWhitespace()
      object[key] = try parseValue(depth: depth + 1)
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(object)
      default: throw error("expected ',' or '}'")
      }
    }
  }

  private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
    index += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      skipWhitespace()
      items.append(try parseValue(depth: depth + 1))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(items)
      default: throw error("expected ',' or ']'")
      }
    }
  }

  private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
    let start = index
    if current == UInt8(ascii: "-") { index += 1 }
    let isDigit = { (byte: UInt8?) in byte.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }
    if current == UInt8(ascii: "0") {
      index += 1
      if isDigit(current) { throw error("leading zero in a number") }
    } else if isDigit(current) {
      while isDigit(current) { index += 1 }
    } else {
      throw error("expected a digit")
    }
    if current == UInt8(ascii: ".") {
      index += 1
      guard isDigit(current) else { throw error("expected a digit after '.'") }
      while isDigit(current) { index += 1 }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard isDigit(current) else { throw error("expected a digit in the exponent") }
      while isDigit(current) { index += 1 }
    }
    // ASCII only, so the bytes are valid UTF-8.
    return JSONNumber(literal: String(decoding: bytes[start..<index], as: UTF8.self))
  }

  private mutating func parseString() throws(JSONParseError) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flushRun(_ parser: JSONParser, upTo end: Int) throws(JSONParseError) {
      guard runStart < end else { return }
      guard let text = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
        throw JSONParseError(message: "invalid UTF-8 in a string", offset: runStart)
      }
      scalars.append(contentsOf: text.unicodeScalars)
    }
    while true {
      guard let byte = current else { throw error("unterminated string") }
      switch byte {
      case UInt8(ascii: "\""):
        try flushRun(self, upTo: index)
        index += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        try flushRun(self, upTo: index)
        index += 1
        scalars.append(try parseEscape())
        runStart = index
      case 0..<0x20:
        throw error("control character in a string")
      default:
        index += 1
      }
    }
  }

  private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
    guard let byte = current else { throw error("unterminated escape") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let first = try parseHex4()
      if (0xD800..<0xDC00).contains(first) {
        // A high surrogate: a low one should follow; a lone one becomes U+FFFD.
        if current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
          let save = index
          index += 2
          let second = try parseHex4()
          if (0xDC00..<0xE000).contains(second) {
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            return Unicode.Scalar(value) ?? "\u{FFFD}"
          }
          index = save
        }
        return "\u{FFFD}"
      }
      return Unicode.Scalar(first) ?? "\u{FFFD}"
    default:
      index -= 1
      throw error("invalid escape")
    }
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current else { throw error("unterminated \\u escape") }
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw error("invalid \\u escape")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }
}
