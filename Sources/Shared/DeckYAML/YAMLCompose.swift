import CYAML

/// Why a YAML text cannot be read: what is wrong, and where.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
  public var problem: String
  /// Where the problem is, when the parser knows.
  public var mark: YAMLMark?
  /// What the parser was reading ("while parsing a block mapping"), when it says.
  public var context: String?
  /// The text is YAML, but holds more values once its aliases are expanded, or nests deeper,
  /// than the reader allows.
  public var exceedsLimit: Bool

  public init(problem: String, mark: YAMLMark?, context: String? = nil, exceedsLimit: Bool = false) {
    self.problem = problem
    self.mark = mark
    self.context = context
    self.exceedsLimit = exceedsLimit
  }

  /// `line L, column C: problem`.
  public var description: String {
    (mark.map { "\($0): " } ?? "") + problem
  }
}

extension YAMLNode {
  /// The most nodes a text may expand to through its aliases (a "billion laughs" text is
  /// refused here, not when it is used).
  public static let defaultNodeLimit = 1_000_000
  /// The deepest nesting a text may have.
  public static let depthLimit = 512

  /// The one document of `yaml`, or nil when the text holds none (only comments or nothing).
  /// More than one document, an undefined alias, nesting deeper than `depthLimit` or more than
  /// `nodeLimit` nodes once aliases are expanded are errors.
  public static func compose(yaml: String, nodeLimit: Int = defaultNodeLimit) throws(YAMLError) -> YAMLNode? {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else {
      throw YAMLError(problem: "the YAML parser could not start (out of memory)", mark: nil)
    }
    defer { yaml_parser_delete(&parser) }
    var bytes = Array(yaml.utf8)
    bytes.append(0)
    var builder = Builder(nodeLimit: nodeLimit)
    let result: Result<YAMLNode?, YAMLError> = bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return .success(nil) }
      yaml_parser_set_input_string(&parser, base, buffer.count - 1)
      yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
      var event = yaml_event_t()
      while true {
        guard yaml_parser_parse(&parser, &event) == 1 else { return .failure(Self.error(of: parser)) }
        defer { yaml_event_delete(&event) }
        do throws(YAMLError) {
          if try builder.handle(event) { return .success(builder.root) }
        } catch {
          return .failure(error)
        }
      }
    }
    return try result.get()
  }

  private static func error(of parser: yaml_parser_t) -> YAMLError {
    let problem = parser.problem.map { String(cString: $0) } ?? "the text is not valid YAML"
    var description = problem
    if parser.problem_value != -1 {
      description += " (byte 0x" + String(UInt8(truncatingIfNeeded: parser.problem_value), radix: 16) + ")"
    }
    let mark =
      parser.error == YAML_READER_ERROR
      ? nil : YAMLMark(parser.problem_mark)
    return YAMLError(problem: description, mark: mark, context: parser.context.map { String(cString: $0) })
  }
}

extension YAMLMark {
  init(_ mark: yaml_mark_t) {
    self.init(line: Int(clamping: mark.line) &+ 1, column: Int(clamping: mark.column) &+ 1)
  }
}

/// Builds the tree from libyaml's events.
private struct Builder {
  enum Frame {
    case sequence(YAMLNode.Sequence, anchor: String?, size: Int)
    case mapping(YAMLNode.Mapping, key: YAMLNode?, anchor: String?, size: Int)
  }

  let nodeLimit: Int
  var stack: [Frame] = []
  var anchors: [String: (node: YAMLNode, size: Int)] = [:]
  var documents = 0
  var nodes = 0
  var root: YAMLNode?

  init(nodeLimit: Int) { self.nodeLimit = nodeLimit }

  static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
  }

  /// Takes one event; true when the stream has ended.
  mutating func handle(_ event: yaml_event_t) throws(YAMLError) -> Bool {
    let mark = YAMLMark(event.start_mark)
    switch event.type {
    case YAML_STREAM_END_EVENT:
      return true
    case YAML_DOCUMENT_START_EVENT:
      documents += 1
      if documents > 1 {
        throw YAMLError(problem: "expected one document, but found another (a second `---`)", mark: mark)
      }
    case YAML_SCALAR_EVENT:
      let scalar = event.data.scalar
      let bytes = UnsafeBufferPointer(start: scalar.value, count: Int(clamping: scalar.length))
      let style: YAMLNode.Style =
        switch scalar.style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
      let node = YAMLNode.scalar(
        YAMLNode.Scalar(
          String(decoding: bytes, as: UTF8.self), style: style, tag: Self.text(scalar.tag), mark: mark))
      try add(node, size: 1, anchor: Self.text(scalar.anchor), mark: mark)
    case YAML_ALIAS_EVENT:
      let name = Self.text(event.data.alias.anchor) ?? ""
      guard let (node, size) = anchors[name] else {
        throw YAMLError(problem: "the alias *\(name) names no anchor (&\(name)) before it", mark: mark)
      }
      try add(node, size: size, anchor: nil, mark: mark)
    case YAML_SEQUENCE_START_EVENT:
      try push(
        .sequence(
          YAMLNode.Sequence([], tag: Self.text(event.data.sequence_start.tag), mark: mark),
          anchor: Self.text(event.data.sequence_start.anchor), size: 1), mark: mark)
    case YAML_MAPPING_START_EVENT:
      try push(
        .mapping(
          YAMLNode.Mapping([], tag: Self.text(event.data.mapping_start.tag), mark: mark), key: nil,
          anchor: Self.text(event.data.mapping_start.anchor), size: 1), mark: mark)
    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      guard let frame = stack.popLast() else { break }
      switch frame {
      case .sequence(let sequence, let anchor, let size):
        try add(.sequence(sequence), size: size, anchor: anchor, mark: mark, counted: true)
      case .mapping(let mapping, _, let anchor, let size):
        try add(.mapping(mapping), size: size, anchor: anchor, mark: mark, counted: true)
      }
    default:
      break
    }
    return false
  }

  mutating func push(_ frame: Frame, mark: YAMLMark) throws(YAMLError) {
    guard stack.count < YAMLNode.depthLimit else {
      throw YAMLError(
        problem: "the text nests deeper than \(YAMLNode.depthLimit) levels", mark: mark, exceedsLimit: true)
    }
    try count(1, mark: mark)
    stack.append(frame)
  }

  mutating func count(_ added: Int, mark: YAMLMark) throws(YAMLError) {
    nodes += added
    if nodes > nodeLimit {
      throw YAMLError(
        problem: "the text holds more than \(nodeLimit) values once its aliases are expanded", mark: mark,
        exceedsLimit: true)
    }
  }

  /// Adds a finished node to its parent (or makes it the document). `counted` nodes were
  /// counted when they started; an alias counts the whole tree it repeats.
  mutating func add(_ node: YAMLNode, size: Int, anchor: String?, mark: YAMLMark, counted: Bool = false)
    throws(YAMLError)
  {
    if !counted { try count(size, mark: mark) }
    if let anchor { anchors[anchor] = (node, size) }
    guard let top = stack.popLast() else {
      root = node
      return
    }
    switch top {
    case .sequence(var sequence, let anchor, let total):
      sequence.nodes.append(node)
      stack.append(.sequence(sequence, anchor: anchor, size: total + size))
    case .mapping(var mapping, let key, let anchor, let total):
      if let key {
        mapping.pairs.append((key: key, value: node))
        stack.append(.mapping(mapping, key: nil, anchor: anchor, size: total + size))
      } else {
        stack.append(.mapping(mapping, key: node, anchor: anchor, size: total + size))
      }
    }
  }
}
