import DeckSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a jq program's text without compiling it.
enum JQProgram {
  /// Whether the program starts with `import` or `include` directives (after an optional
  /// `module …;`): jq's grammar allows them there only.
  static func importsModules(_ program: String) -> Bool {
    var scanner = Scanner(Array(program.utf8))
    scanner.skipBlank()
    if scanner.word() == "module" {
      scanner.skipPast(UInt8(ascii: ";"))
      scanner.skipBlank()
    } else {
      scanner = Scanner(Array(program.utf8))
      scanner.skipBlank()
    }
    let word = scanner.word()
    return word == "import" || word == "include"
  }

  struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Skips white space and `#` comments.
    mutating func skipBlank() {
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "#") {
          while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
          index += 1
        } else {
          return
        }
      }
    }

    /// The identifier here (letters, digits, `_`), consumed.
    mutating func word() -> String {
      let start = index
      while index < bytes.count,
        bytes[index] == UInt8(ascii: "_") || (bytes[index] < 0x80 && isalnum(Int32(bytes[index])) != 0)
      {
        index += 1
      }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Skips to just after `end` outside strings and brackets (strings may nest `\(…)`).
    mutating func skipPast(_ end: UInt8) {
      var depth = 0
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == end, depth == 0 { return }
        switch byte {
        case UInt8(ascii: "\""): skipString()
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        case UInt8(ascii: "#"):
          while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        default: break
        }
      }
    }

    /// Skips the rest of a string whose opening quote was consumed.
    mutating func skipString() {
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\"") { return }
        guard byte == UInt8(ascii: "\\"), index < bytes.count else { continue }
        let escaped = bytes[index]
        index += 1
        if escaped == UInt8(ascii: "(") { skipPast(UInt8(ascii: ")")) }
      }
    }
  }
}

/// The filter shapes the known libjq 1.6 bugs need, refused before a filter runs (defence in
/// depth: the filter child is what keeps deck up, and a computed index still reaches it).
enum JQShapes {
  /// The smallest index refused: an array that long takes 512 MB (16 bytes a value), the most
  /// a filter may use, so no filter that could end well is refused.
  static let hugeIndex = 1 << 25

  /// Why `program` is refused, or nil: a literal index of ``hugeIndex`` or more (`.[1000000000]`,
  /// CVE-2024-23337), such a literal in the paths of `setpath`, `getpath` or `delpaths`, and a
  /// NaN with a payload (`nan123`, in the program or in a string it could parse, CVE-2024-53427).
  static func refusal(_ program: String) -> String? {
    let tokens = JQTokens.tokenize(Array(program.utf8))
    let calls = enclosingCalls(tokens)
    for (position, token) in tokens.enumerated() {
      switch token {
      case .number(let value) where value >= Double(hugeIndex):
        let before = position >= 2 ? tokens[position - 2] : nil
        if position >= 1, tokens[position - 1] == .punct(UInt8(ascii: "[")), before?.endsTerm == true,
          position + 1 < tokens.count, tokens[position + 1] == .punct(UInt8(ascii: "]"))
        {
          return indexMessage(value)
        }
        if let function = calls[position], ["setpath", "getpath", "delpaths"].contains(function) {
          return indexMessage(value, in: function)
        }
      case .identifier(let name)
      where hasNaNPayload(name) && (position == 0 || tokens[position - 1] != .punct(UInt8(ascii: "."))),
        .string(let name) where hasNaNPayload(name):
        return
          "the filter holds a NaN with a payload (\(TerminalText.sanitize(String(name.prefix(40))))): deck refuses them before running a filter, as libjq 1.6 mishandles them (CVE-2024-53427)."
      default: continue
      }
    }
    return nil
  }

  static func indexMessage(_ value: Double, in function: String? = nil) -> String {
    "the filter indexes an array at \(NumberText.short(value))\(function.map { " in \($0)'s path" } ?? ""): deck refuses literal indexes of \(hugeIndex) and more before running a filter (such an array needs more memory than a filter may use, and libjq 1.6 crashes on them: CVE-2024-23337)."
  }

  /// For each token, the function whose parenthesized arguments hold it, if any (the innermost
  /// named one: a parenthesized group inside the arguments is looked through). One pass.
  static func enclosingCalls(_ tokens: [JQTokens.Token]) -> [String?] {
    var open: [String?] = []
    var calls: [String?] = []
    calls.reserveCapacity(tokens.count)
    for (position, token) in tokens.enumerated() {
      calls.append(open.last ?? nil)
      if token == .punct(UInt8(ascii: "(")) {
        if position > 0, case .identifier(let name) = tokens[position - 1] {
          open.append(name)
        } else {
          open.append(open.last ?? nil)
        }
      } else if token == .punct(UInt8(ascii: ")")) {
        _ = open.popLast()
      }
    }
    return calls
  }

  /// `nan` followed by digits or `(`, not inside a longer word (`nan123`, `NaN(1)`).
  static func hasNaNPayload(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    var index = 0
    while index + 3 < bytes.count {
      defer { index += 1 }
      guard bytes[index] | 0x20 == UInt8(ascii: "n"), bytes[index + 1] | 0x20 == UInt8(ascii: "a"),
        bytes[index + 2] | 0x20 == UInt8(ascii: "n")
      else { continue }
      if index > 0, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index - 1] | 0x20) { continue }
      let after = bytes[index + 3]
      if JQTokens.Tokenizer.isDigit(after) || after == UInt8(ascii: "(") { return true }
    }
    return false
  }
}

/// A jq program's tokens, as far as ``JQShapes`` needs them: numbers, identifiers (with `$`),
/// string literals' text (the code in `\(…)` is tokenized as code) and single punctuation.
enum JQTokens {
  enum Token: Equatable {
    case number(Double)
    case identifier(String)
    case string(String)
    case punct(UInt8)

    /// Whether a term can end here, so that a `[` after it indexes (`.`, `]`, `)`, `?`, a name, a string).
    var endsTerm: Bool {
      switch self {
      case .identifier, .string: true
      case .punct(let byte):
        [UInt8(ascii: "."), UInt8(ascii: "]"), UInt8(ascii: ")"), UInt8(ascii: "?")].contains(byte)
      case .number: false
      }
    }
  }

  static func tokenize(_ bytes: [UInt8]) -> [Token] {
    var tokenizer = Tokenizer(bytes: bytes)
    tokenizer.code(interpolation: false)
    return tokenizer.tokens
  }

  struct Tokenizer {
    let bytes: [UInt8]
    var index = 0
    var tokens: [Token] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    static func isWord(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || isDigit(byte)
        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// Code up to the end, or (in an interpolation) up to its unmatched `)`.
    mutating func code(interpolation: Bool) {
      var depth = 0
      while index < bytes.count {
        let byte = bytes[index]
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if byte == UInt8(ascii: "#") {
          while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
          index += 1
        } else if byte == UInt8(ascii: "\"") {
          index += 1
          string()
        } else if Self.isDigit(byte) || (byte == UInt8(ascii: ".") && Self.isDigit(next)) {
          number()
        } else if Self.isWord(byte) {
          let start = index
          while index < bytes.count {
            if Self.isWord(bytes[index]) {
              index += 1
            } else if bytes[index] == UInt8(ascii: ":"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: ":"),
              Self.isWord(bytes[index + 2])
            {
              index += 2
            } else {
              break
            }
          }
          tokens.append(.identifier(String(decoding: bytes[start..<index], as: UTF8.self)))
        } else {
          index += 1
          if byte == UInt8(ascii: "(") { depth += 1 }
          if byte == UInt8(ascii: ")") {
            if interpolation, depth == 0 { return }
            depth -= 1
          }
          tokens.append(.punct(byte))
        }
      }
    }

    /// `[0-9]+(\.[0-9]*)?|\.[0-9]+`, then `[eE][+-]?[0-9]+`, as jq's lexer reads a number.
    mutating func number() {
      let start = index
      while index < bytes.count, Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: ".") { index += 1 }
      if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
        var end = index + 1
        if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
        if end < bytes.count, Self.isDigit(bytes[end]) {
          index = end
          while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
      }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      tokens.append(.number(Double(text) ?? 0))
    }

    /// A string literal whose opening quote was consumed; `\(…)` inside it is code.
    mutating func string() {
      var text: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\"") { break }
        guard byte == UInt8(ascii: "\\"), index < bytes.count else {
          text.append(byte)
          continue
        }
        let escaped = bytes[index]
        index += 1
        if escaped == UInt8(ascii: "(") {
          tokens.append(.string(String(decoding: text, as: UTF8.self)))
          text = []
          code(interpolation: true)
        } else {
          text.append(escaped)
        }
      }
      tokens.append(.string(String(decoding: text, as: UTF8.self)))
    }
  }
}

/// The filter child's protocol. In: the program's length (4 bytes, little-endian), the
/// program, then the JSON document to the end. Out: frames of a kind byte, a length (4 bytes,
/// little-endian) and UTF-8 text: results and `debug` messages as they come, then one `end`
/// frame (empty when the run ended well, else the error's message).
enum JQFrames {
  enum Kind: UInt8 {
    case result = 0x72  // r
    case debug = 0x64  // d
    case end = 0x65  // e
  }

  static func encode(_ kind: Kind, _ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    return [kind.rawValue] + littleEndian(UInt32(clamping: bytes.count)) + bytes
  }

  static func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  static func readLittleEndian(_ bytes: ArraySlice<UInt8>) -> Int {
    bytes.prefix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
  }

  /// Frames out of a stream of bytes.
  struct Decoder {
    private var buffer: [UInt8] = []
    private var start = 0

    mutating func append(_ bytes: [UInt8]) {
      if start > 0, start >= buffer.count / 2 {
        buffer.removeFirst(start)
        start = 0
      }
      buffer += bytes
    }

    /// The next whole frame; nil until one has arrived. An unknown kind is a result's text.
    mutating func next() -> (kind: Kind, text: String)? {
      guard buffer.count - start >= 5 else { return nil }
      let length = readLittleEndian(buffer[(start + 1)...])
      guard buffer.count - start - 5 >= length else { return nil }
      let kind = Kind(rawValue: buffer[start]) ?? .result
      let text = String(decoding: buffer[(start + 5)..<(start + 5 + length)], as: UTF8.self)
      start += 5 + length
      return (kind, text)
    }
  }
}
