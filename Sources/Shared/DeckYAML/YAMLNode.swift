/// A place in a YAML text: 1-based line and column.
public struct YAMLMark: Sendable, Equatable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public var description: String { "line \(line), column \(column)" }
}

/// One YAML document as a tree: scalars keep their text and style, mappings their keys' order,
/// and every node the place it starts. Aliases are expanded when the text is read
/// (`YAMLNode.compose`), so a tree has no references.
public enum YAMLNode: Sendable, Equatable {
  case scalar(Scalar)
  case mapping(Mapping)
  case sequence(Sequence)

  /// How a scalar was written: plain scalars are typed by YAML's core schema, the others are text.
  public enum Style: Sendable, Equatable {
    case plain, singleQuoted, doubleQuoted, literal, folded
  }

  public struct Scalar: Sendable, Equatable {
    public var string: String
    public var style: Style
    /// The explicit tag (`!!str` is `tag:yaml.org,2002:str`), nil when none was written.
    public var tag: String?
    public var mark: YAMLMark

    public init(
      _ string: String, style: Style = .plain, tag: String? = nil, mark: YAMLMark = YAMLMark(line: 0, column: 0)
    ) {
      self.string = string
      self.style = style
      self.tag = tag
      self.mark = mark
    }
  }

  public struct Mapping: Sendable, Equatable, RandomAccessCollection {
    public typealias Element = (key: YAMLNode, value: YAMLNode)
    public var pairs: [Element]
    public var tag: String?
    public var mark: YAMLMark

    public init(_ pairs: [Element], tag: String? = nil, mark: YAMLMark = YAMLMark(line: 0, column: 0)) {
      self.pairs = pairs
      self.tag = tag
      self.mark = mark
    }

    public var startIndex: Int { pairs.startIndex }
    public var endIndex: Int { pairs.endIndex }
    public subscript(position: Int) -> Element { pairs[position] }

    /// The value of the first key whose text is `key`.
    public subscript(key: String) -> YAMLNode? {
      pairs.first { $0.key.string == key }?.value
    }

    public static func == (lhs: Mapping, rhs: Mapping) -> Bool {
      lhs.tag == rhs.tag && lhs.mark == rhs.mark && lhs.pairs.count == rhs.pairs.count
        && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
  }

  public struct Sequence: Sendable, Equatable, RandomAccessCollection {
    public var nodes: [YAMLNode]
    public var tag: String?
    public var mark: YAMLMark

    public init(_ nodes: [YAMLNode], tag: String? = nil, mark: YAMLMark = YAMLMark(line: 0, column: 0)) {
      self.nodes = nodes
      self.tag = tag
      self.mark = mark
    }

    public var startIndex: Int { nodes.startIndex }
    public var endIndex: Int { nodes.endIndex }
    public subscript(position: Int) -> YAMLNode { nodes[position] }
  }

  /// Where the node starts.
  public var mark: YAMLMark {
    switch self {
    case .scalar(let scalar): scalar.mark
    case .mapping(let mapping): mapping.mark
    case .sequence(let sequence): sequence.mark
    }
  }

  public var scalar: Scalar? {
    if case .scalar(let scalar) = self { return scalar }
    return nil
  }

  /// A scalar's text, whatever its style (nil for a mapping or a sequence).
  public var string: String? { scalar?.string }

  public var mapping: Mapping? {
    if case .mapping(let mapping) = self { return mapping }
    return nil
  }

  public var sequence: Sequence? {
    if case .sequence(let sequence) = self { return sequence }
    return nil
  }

  /// The value YAML 1.2's core schema gives this node, if it is a scalar: plain scalars are typed
  /// (`null`, `~` and nothing are null; `true`/`false`; integers in decimal, `0x` and `0o`; floats,
  /// `.inf` and `.nan`), quoted and block scalars are text, and an explicit `!!str`, `!!int`,
  /// `!!float`, `!!bool` or `!!null` tag is obeyed when the text fits it.
  public var resolved: YAMLScalarValue? {
    guard let scalar else { return nil }
    return YAMLScalarValue(scalar)
  }

  /// A plain null (`null`, `Null`, `NULL`, `~` or nothing), or an explicit `!!null`.
  public var isNull: Bool { resolved == .null }

  public var bool: Bool? {
    if case .bool(let flag)? = resolved { return flag }
    return nil
  }

  public var int: Int? {
    if case .int(let integer)? = resolved { return integer }
    return nil
  }

  /// A float, or an integer read as one.
  public var float: Double? {
    switch resolved {
    case .float(let number)?: number
    case .int(let integer)?: Double(integer)
    default: nil
    }
  }

}

/// A scalar's value under YAML 1.2's core schema.
public enum YAMLScalarValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// An integer that fits in `Int`. Longer ones are `.bigInteger`, with their decimal text.
  case int(Int)
  case bigInteger(String)
  case float(Double)
  case string(String)

  public init(_ scalar: YAMLNode.Scalar) {
    let text = scalar.string
    switch scalar.tag {
    case "tag:yaml.org,2002:str"?:
      self = .string(text)
      return
    case "tag:yaml.org,2002:null"?:
      self = .null
      return
    case "tag:yaml.org,2002:bool"?, "tag:yaml.org,2002:int"?, "tag:yaml.org,2002:float"?:
      self = Self.plain(text)
      return
    case nil, "!"?:
      break
    default:
      self = .string(text)
      return
    }
    guard scalar.style == .plain, scalar.tag == nil else {
      self = .string(text)
      return
    }
    self = Self.plain(text)
  }

  /// The core schema's reading of a plain scalar.
  public static func plain(_ text: String) -> YAMLScalarValue {
    switch text {
    case "", "~", "null", "Null", "NULL": return .null
    case "true", "True", "TRUE": return .bool(true)
    case "false", "False", "FALSE": return .bool(false)
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .float(.infinity)
    case "-.inf", "-.Inf", "-.INF": return .float(-.infinity)
    case ".nan", ".NaN", ".NAN": return .float(.nan)
    default: break
    }
    let bytes = Array(text.utf8)
    if let integer = integer(bytes) { return integer }
    if isFloat(bytes), let number = Double(text) { return .float(number) }
    return .string(text)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`.
  private static func integer(_ bytes: [UInt8]) -> YAMLScalarValue? {
    if bytes.count > 2, bytes[0] == 0x30, bytes[1] == 0x78 || bytes[1] == 0x6F {
      let radix = bytes[1] == 0x78 ? 16 : 8
      let digits = String(decoding: bytes[2...], as: UTF8.self)
      guard let value = Int(digits, radix: radix), !digits.hasPrefix("-"), !digits.hasPrefix("+") else {
        return nil
      }
      return .int(value)
    }
    var digits = bytes[...]
    if let first = digits.first, first == 0x2B || first == 0x2D { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
    let text = String(decoding: bytes.first == 0x2B ? Array(bytes.dropFirst()) : bytes, as: UTF8.self)
    if let value = Int(text) { return .int(value) }
    return .bigInteger(text)
  }

  /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
  private static func isFloat(_ bytes: [UInt8]) -> Bool {
    var index = 0
    func digits() -> Int {
      let start = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      return index - start
    }
    if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
    var mantissa = digits()
    if index < bytes.count, bytes[index] == 0x2E {
      index += 1
      mantissa += digits()
    }
    guard mantissa > 0 else { return false }
    if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
      index += 1
      if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
      guard digits() > 0 else { return false }
    }
    return index == bytes.count
  }
}
