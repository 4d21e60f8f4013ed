import DeckSupport
import DeckValues
import DeckYAML
import FoundationEssentials

/// Reads scenario files and `rows.yaml` (docs/QA.md). Every error names the file, the line and
/// the field, and is a usage error (exit 64).
public enum ScenarioParser {
  /// A parse error at a place in a file.
  static func problem(_ file: String, _ node: YAMLNode?, _ field: String, _ message: String) -> DeckError {
    let line = node.map { ":\($0.mark.line)" } ?? ""
    return DeckError.usage(
      "\(file)\(line): \(field): \(message)", hint: "Fix the scenario file; docs/QA.md describes the format.")
  }

  static func root(_ text: String, file: String) throws -> [(key: String, keyNode: YAMLNode, value: YAMLNode)] {
    let node: YAMLNode?
    do {
      node = try YAMLNode.compose(yaml: text)
    } catch {
      throw DeckError.usage(
        "\(file)\(error.mark.map { ":\($0.line)" } ?? ""): not valid YAML: \(error.problem)",
        hint: "Fix the scenario file; docs/QA.md describes the format.")
    }
    guard let node, !node.isNull else { throw problem(file, nil, "(file)", "the file is empty") }
    return try mapping(node, file: file, field: "(file)")
  }

  static func mapping(_ node: YAMLNode, file: String, field: String) throws -> [(
    key: String, keyNode: YAMLNode, value: YAMLNode
  )] {
    guard let mapping = node.mapping else { throw problem(file, node, field, "expected a mapping (KEY: VALUE lines)") }
    var seen = Set<String>()
    return try mapping.map { key, value in
      guard let name = key.scalar?.string else { throw problem(file, key, field, "keys must be plain names") }
      guard seen.insert(name).inserted else { throw problem(file, key, field, "\"\(name)\" is given twice") }
      return (name, key, value)
    }
  }

  static func string(_ node: YAMLNode, file: String, field: String) throws -> String {
    guard let scalar = node.scalar, !node.isNull else { throw problem(file, node, field, "expected a text") }
    return scalar.string
  }

  static func sequence(_ node: YAMLNode, file: String, field: String) throws -> [YAMLNode] {
    guard let sequence = node.sequence else { throw problem(file, node, field, "expected a list") }
    return Array(sequence)
  }

  static func unknown(_ key: String, _ node: YAMLNode, file: String, field: String, known: [String]) -> DeckError {
    problem(file, node, field, "unknown key \"\(key)\" (known: \(known.joined(separator: ", ")))")
  }

  // MARK: Scenario files

  /// The scenarios of one file.
  public static func scenarios(_ text: String, file: String) throws -> [Scenario] {
    var module: String?
    var list: YAMLNode?
    var listKey: YAMLNode?
    for (key, keyNode, value) in try root(text, file: file) {
      switch key {
      case "module": module = try name(value, file: file, field: "module")
      case "scenarios":
        list = value
        listKey = keyNode
      default: throw unknown(key, keyNode, file: file, field: "(file)", known: ["module", "scenarios"])
      }
    }
    guard let module else { throw problem(file, nil, "module", "missing: name the module the scenarios belong to") }
    guard let list else { throw problem(file, listKey, "scenarios", "missing: give a list of scenarios") }
    var ids = Set<String>()
    return try sequence(list, file: file, field: "scenarios").enumerated().map { index, node in
      let scenario = try self.scenario(node, module: module, file: file, field: "scenarios[\(index)]")
      guard ids.insert(scenario.id).inserted else {
        throw problem(file, node, "scenarios[\(index)].id", "\"\(scenario.id)\" is used twice in this file")
      }
      return scenario
    }
  }

  /// A module or variable name: letters, digits, `-`, `_` and `.`.
  static func name(_ node: YAMLNode, file: String, field: String) throws -> String {
    let value = try string(node, file: file, field: field)
    guard !value.isEmpty, value.count <= 100,
      value.unicodeScalars.allSatisfy({
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
      })
    else { throw problem(file, node, field, "\"\(value)\" must be letters, digits, '-', '_' and '.'") }
    return value
  }

  static func scenario(_ node: YAMLNode, module: String, file: String, field: String) throws -> Scenario {
    var id: String?
    var title = ""
    var covers: [String] = []
    var tags = Set<Scenario.Tag>()
    var generate: [(String, Scenario.Generator)] = []
    var vars: [(String, String)] = []
    var fromEnvironment: [(String, String)] = []
    var steps: [Step]?
    let known = ["id", "title", "covers", "tags", "generate", "vars", "from-env", "steps"]
    for (key, keyNode, value) in try mapping(node, file: file, field: field) {
      let path = "\(field).\(key)"
      switch key {
      case "id": id = try name(value, file: file, field: path)
      case "title": title = try string(value, file: file, field: path)
      case "covers":
        covers = try sequence(value, file: file, field: path).enumerated().map {
          try name($1, file: file, field: "\(path)[\($0)]")
        }
      case "tags":
        for (index, item) in try sequence(value, file: file, field: path).enumerated() {
          let text = try string(item, file: file, field: "\(path)[\(index)]")
          guard let tag = Scenario.Tag(rawValue: text) else {
            throw problem(
              file, item, "\(path)[\(index)]",
              "unknown tag \"\(text)\" (known: \(Scenario.Tag.allCases.map(\.rawValue).joined(separator: ", ")))")
          }
          tags.insert(tag)
        }
      case "generate":
        for (variable, variableNode, kind) in try mapping(value, file: file, field: path) {
          try checkVariable(variable, variableNode, file: file, field: path)
          let text = try string(kind, file: file, field: "\(path).\(variable)")
          guard let generator = Scenario.Generator(rawValue: text) else {
            throw problem(
              file, kind, "\(path).\(variable)",
              "unknown generator \"\(text)\" (known: \(Scenario.Generator.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
          }
          generate.append((variable, generator))
        }
      case "vars":
        for (variable, variableNode, text) in try mapping(value, file: file, field: path) {
          try checkVariable(variable, variableNode, file: file, field: path)
          vars.append((variable, try string(text, file: file, field: "\(path).\(variable)")))
        }
      case "from-env":
        for (variable, variableNode, source) in try mapping(value, file: file, field: path) {
          try checkVariable(variable, variableNode, file: file, field: path)
          let name = try string(source, file: file, field: "\(path).\(variable)")
          guard ShellWords.isVariableName(name) else {
            throw problem(file, source, "\(path).\(variable)", "\"\(name)\" is not an environment variable's name")
          }
          fromEnvironment.append((variable, name))
        }
      case "steps":
        let items = try sequence(value, file: file, field: path)
        guard !items.isEmpty else { throw problem(file, value, path, "a scenario needs at least one step") }
        steps = try items.enumerated().map { try step($1, file: file, field: "\(path)[\($0)]") }
      default: throw unknown(key, keyNode, file: file, field: field, known: known)
      }
    }
    guard let id else { throw problem(file, node, "\(field).id", "missing: name the spec row it covers") }
    guard let steps else { throw problem(file, node, "\(field).steps", "missing: give the deck lines to run") }
    guard tags.contains(.readonly) != tags.contains(.writes) else {
      throw problem(
        file, node, "\(field).tags",
        tags.contains(.readonly)
          ? "a scenario is readonly or writes, not both" : "missing readonly or writes: say whether it changes state")
    }
    let names = generate.map(\.0) + vars.map(\.0) + fromEnvironment.map(\.0)
    if let twice = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
      throw problem(file, node, field, "the variable \"\(twice)\" is set twice (generate, vars, from-env)")
    }
    var scenario = Scenario(
      id: id, title: title, module: module, covers: covers, tags: tags,
      generate: generate.map { (name: $0.0, generator: $0.1) }, vars: vars.map { (name: $0.0, value: $0.1) },
      steps: steps, file: file, line: node.mark.line)
    scenario.fromEnvironment = fromEnvironment.map { (name: $0.0, variable: $0.1) }
    return scenario
  }

  static func checkVariable(_ name: String, _ node: YAMLNode, file: String, field: String) throws {
    guard ShellWords.isVariableName(name) else {
      throw problem(file, node, field, "\"\(name)\" is not a variable name (a letter or _, then letters, digits, _)")
    }
    guard !ScenarioVariables.builtIn.contains(name) else {
      throw problem(file, node, field, "\"\(name)\" is set by deck; choose another name")
    }
  }

  static func step(_ node: YAMLNode, file: String, field: String) throws -> Step {
    var run: String?
    var step = Step(
      run: "", stdin: nil, timeout: Step.defaultTimeout, always: false, expect: Expectation(), captures: [],
      line: node.mark.line)
    let known = ["run", "stdin", "keys", "timeout", "always", "expect", "capture"]
    for (key, keyNode, value) in try mapping(node, file: file, field: field) {
      let path = "\(field).\(key)"
      switch key {
      case "run":
        let line = try string(value, file: file, field: path)
        guard !line.trimming(.whitespaces).isEmpty else {
          throw problem(file, value, path, "the line is empty")
        }
        run = line
      case "stdin": step.stdin = try string(value, file: file, field: path)
      case "keys": step.keys = try keys(value, file: file, field: path)
      case "timeout":
        guard let seconds = value.float, seconds > 0, seconds <= 3600 else {
          throw problem(file, value, path, "expected seconds, more than 0 and at most 3600")
        }
        step.timeout = seconds
      case "always":
        guard let flag = value.bool else { throw problem(file, value, path, "expected true or false") }
        step.always = flag
      case "expect": step.expect = try expectation(value, file: file, field: path)
      case "capture":
        for (variable, variableNode, expression) in try mapping(value, file: file, field: path) {
          try checkVariable(variable, variableNode, file: file, field: path)
          let text = try string(expression, file: file, field: "\(path).\(variable)")
          step.captures.append(
            Step.Capture(
              name: variable, expression: text, line: expression.mark.line, field: "\(path).\(variable)"))
        }
      default: throw unknown(key, keyNode, file: file, field: field, known: known)
      }
    }
    guard let run else { throw problem(file, node, "\(field).run", "missing: the deck line to run") }
    step.run = run
    if !step.keys.isEmpty {
      if step.stdin != nil {
        throw problem(file, node, "\(field).stdin", "a step with keys types its input; give it in keys, not stdin")
      }
      if !step.expect.stderr.isEmpty {
        throw problem(
          file, node, "\(field).expect.stderr", "on a terminal, stdout and stderr are one screen: check it with stdout")
      }
    }
    return step
  }

  static func expectation(_ node: YAMLNode, file: String, field: String) throws -> Expectation {
    var expectation = Expectation()
    for (key, keyNode, value) in try mapping(node, file: file, field: field) {
      let path = "\(field).\(key)"
      switch key {
      case "exit":
        guard let code = value.int, (0...255).contains(code), value.scalar?.style == .plain else {
          throw problem(file, value, path, "expected an exit code, 0 to 255")
        }
        expectation.exit = Int32(code)
      case "stdout": expectation.stdout = try textChecks(value, file: file, field: path)
      case "stderr": expectation.stderr = try textChecks(value, file: file, field: path)
      case "jq":
        let items = value.sequence.map(Array.init) ?? [value]
        expectation.jq = try items.enumerated().map { index, item in
          let itemPath = "\(path)[\(index)]"
          if item.scalar != nil {
            let text = try string(item, file: file, field: itemPath)
            return Expectation.JQCheck(expression: text, equals: nil, line: item.mark.line, field: itemPath)
          }
          var expression: String?
          var equals: String?
          for (key, keyNode, value) in try mapping(item, file: file, field: itemPath) {
            switch key {
            case "expr":
              expression = try string(value, file: file, field: "\(itemPath).expr")
            case "equals": equals = json(value)
            default: throw unknown(key, keyNode, file: file, field: itemPath, known: ["expr", "equals"])
            }
          }
          guard let expression else { throw problem(file, item, "\(itemPath).expr", "missing: the jq expression") }
          guard let equals else { throw problem(file, item, "\(itemPath).equals", "missing: the value it must give") }
          return Expectation.JQCheck(
            expression: expression, equals: equals, line: item.mark.line, field: "\(itemPath).expr")
        }
      default: throw unknown(key, keyNode, file: file, field: field, known: ["exit", "stdout", "stderr", "jq"])
      }
    }
    return expectation
  }

  static func textChecks(_ node: YAMLNode, file: String, field: String) throws -> [Expectation.TextCheck] {
    if let items = node.sequence {
      return try items.enumerated().map { .contains(try string($1, file: file, field: "\(field)[\($0)]")) }
    }
    if node.scalar != nil { return [.contains(try string(node, file: file, field: field))] }
    return try mapping(node, file: file, field: field).map { key, keyNode, value in
      let text = try string(value, file: file, field: "\(field).\(key)")
      switch key {
      case "contains": return .contains(text)
      case "not-contains": return .notContains(text)
      case "equals": return .equals(text)
      case "matches":
        guard (try? Regex(text)) != nil else {
          throw problem(file, value, "\(field).matches", "not a valid regular expression")
        }
        return .matches(text)
      default:
        throw unknown(key, keyNode, file: file, field: field, known: ["contains", "not-contains", "equals", "matches"])
      }
    }
  }

  /// A YAML value as JSON text: plain scalars by YAML's rules (numbers, true/false, null),
  /// quoted ones as strings.
  static func json(_ node: YAMLNode) -> String {
    switch node {
    case .scalar(let scalar):
      switch YAMLScalarValue(scalar) {
      case .null: return "null"
      case .bool(let flag): return flag ? "true" : "false"
      case .int(let integer): return String(integer)
      case .bigInteger(let digits): return digits
      case .float(let number) where number.isFinite: return String(number)
      default: return JSONText.quoted(scalar.string)
      }
    case .sequence(let sequence): return "[" + sequence.map(json).joined(separator: ",") + "]"
    case .mapping(let mapping):
      return "{"
        + mapping.map { JSONText.quoted($0.key.scalar?.string ?? "") + ":" + json($0.value) }.joined(separator: ",")
        + "}"
    }
  }

  // MARK: rows.yaml

  /// A module's spec rows.
  public static func rows(_ text: String, file: String) throws -> SpecRows {
    var rows = SpecRows(module: "", spec: "", rows: [])
    for (key, keyNode, value) in try root(text, file: file) {
      switch key {
      case "module": rows.module = try name(value, file: file, field: "module")
      case "spec": rows.spec = try string(value, file: file, field: "spec")
      case "rows":
        var ids = Set<String>()
        rows.rows = try sequence(value, file: file, field: "rows").enumerated().map { index, item in
          let path = "rows[\(index)]"
          var row = SpecRows.Row(id: "", text: "", notApplicable: nil, kind: nil)
          for (key, keyNode, value) in try mapping(item, file: file, field: path) {
            switch key {
            case "id": row.id = try name(value, file: file, field: "\(path).id")
            case "text": row.text = try string(value, file: file, field: "\(path).text")
            case "not-applicable": row.notApplicable = try string(value, file: file, field: "\(path).not-applicable")
            case "kind": row.kind = try rowKind(value, file: file, field: "\(path).kind")
            default:
              throw unknown(key, keyNode, file: file, field: path, known: ["id", "text", "not-applicable", "kind"])
            }
          }
          guard !row.id.isEmpty else { throw problem(file, item, "\(path).id", "missing") }
          guard ids.insert(row.id).inserted else {
            throw problem(file, item, "\(path).id", "\"\(row.id)\" is listed twice")
          }
          return row
        }
      default: throw unknown(key, keyNode, file: file, field: "(file)", known: ["module", "spec", "rows"])
      }
    }
    guard !rows.module.isEmpty else { throw problem(file, nil, "module", "missing") }
    return rows
  }

  /// A row's `kind`: what its behaviour lives in.
  static func rowKind(_ node: YAMLNode, file: String, field: String) throws -> SpecRows.Kind {
    let text = try string(node, file: file, field: field)
    guard let kind = SpecRows.Kind(rawValue: text) else {
      throw problem(
        file, node, field,
        "\"\(text)\" is not a kind: \(SpecRows.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return kind
  }
}

/// A module's spec checklist: the rows `deck qa coverage` reports on.
public struct SpecRows: Sendable, Equatable {
  public struct Row: Sendable, Equatable {
    public var id: String
    public var text: String
    /// Why a terminal cannot exercise it, if it cannot.
    public var notApplicable: String?
    /// Where its behaviour lives, so where a scenario must reach to test it (nil: not said).
    public var kind: Kind?
  }

  /// Where a row's behaviour lives: the backend (a scenario reaches it without deck's client
  /// in between: `deck api`, raw input), the client (a scenario drives deck as a user does) or both.
  public enum Kind: String, Sendable, Equatable, CaseIterable, Encodable {
    case backend, client, both
  }

  public var module: String
  public var spec: String
  public var rows: [Row]
}
