import DeckYAML

extension ScenarioParser {
  /// `keys:` a list of `{wait: TEXT, send: KEYS}` (either may be left out; YAML's double-quoted
  /// escapes spell the keys: "\t" Tab, "\r" Enter, "\x15" Ctrl-U, "\x7f" Backspace).
  static func keys(_ node: YAMLNode, file: String, field: String) throws -> [Step.KeyExchange] {
    guard let items = node.sequence, !items.isEmpty else {
      throw problem(file, node, field, "expected a list of {wait: TEXT, send: KEYS}")
    }
    return try items.enumerated().map { index, item in
      let path = "\(field)[\(index)]"
      var exchange = Step.KeyExchange(line: item.mark.line)
      for (key, keyNode, value) in try mapping(item, file: file, field: path) {
        switch key {
        case "wait":
          let text = try string(value, file: file, field: "\(path).wait")
          guard !text.isEmpty else { throw problem(file, value, "\(path).wait", "the text to wait for is empty") }
          exchange.wait = text
        case "send": exchange.send = try string(value, file: file, field: "\(path).send")
        default: throw unknown(key, keyNode, file: file, field: path, known: ["wait", "send"])
        }
      }
      guard exchange.wait != nil || exchange.send != nil else {
        throw problem(file, item, path, "expected wait, send or both")
      }
      return exchange
    }
  }
}
