import DeckSupport
import DeckYAML
import FoundationEssentials

/// The rows of `qa run --data FILE`, as newman's `-d` reads them: each scenario runs once per
/// row, with the row's columns as variables. A CSV file (RFC 4180: a header line naming the
/// columns, then a line per row; quoted values may hold commas, quotes as `""` and line breaks)
/// or a YAML file (a list of mappings of names to texts). Every error names the file and the
/// line (and the row), and is a usage error (64): nothing runs.
public struct ScenarioData: Sendable, Equatable {
  public struct Row: Sendable, Equatable {
    /// Its line in the file.
    public var line: Int
    public var values: [(name: String, value: String)]

    public static func == (lhs: Row, rhs: Row) -> Bool {
      lhs.line == rhs.line && lhs.values.map(\.name) == rhs.values.map(\.name)
        && lhs.values.map(\.value) == rhs.values.map(\.value)
    }
  }

  public var file: String
  public var rows: [Row]

  /// More rows than anyone means to run.
  static let maximumRows = 10_000

  static func problem(_ file: String, _ line: Int?, _ message: String) -> DeckError {
    DeckError.usage(
      "\(file)\(line.map { ":\($0)" } ?? ""): \(message)",
      hint: "Fix the data file: a CSV file with a header line, or a YAML list of mappings (docs/QA.md).")
  }

  /// The data file at `path`: YAML when it ends in `.yaml` or `.yml`, else CSV.
  public static func read(_ path: String) throws -> ScenarioData {
    let data = try InputFile.read(path, what: "the data file", hint: "Check the path and its permissions.")
    guard let text = String(data: data, encoding: .utf8) else {
      throw DeckError.usage("\(path) is not UTF-8 text.", hint: "Save the data file as UTF-8.")
    }
    return path.hasSuffix(".yaml") || path.hasSuffix(".yml")
      ? try yaml(text, file: path) : try csv(text, file: path)
  }

  /// Column names are variable names that deck does not set itself.
  static func checkName(_ name: String, file: String, line: Int) throws {
    guard ShellWords.isVariableName(name) else {
      throw problem(file, line, "\"\(name)\" is not a variable name (a letter or _, then letters, digits, _)")
    }
    guard !ScenarioVariables.builtIn.contains(name) else {
      throw problem(file, line, "\"\(name)\" is set by deck; choose another name")
    }
  }

  static func checked(_ rows: [Row], file: String) throws -> ScenarioData {
    guard !rows.isEmpty else { throw problem(file, nil, "there is no row of values") }
    guard rows.count <= maximumRows else {
      throw problem(file, rows[maximumRows].line, "more than \(maximumRows) rows")
    }
    return ScenarioData(file: file, rows: rows)
  }

  // MARK: CSV

  /// Records of a CSV text, each with the line it starts on.
  static func records(_ text: String, file: String) throws -> [(line: Int, fields: [String])] {
    var records: [(line: Int, fields: [String])] = []
    var fields: [String] = []
    var field = ""
    var quoted = false
    var wasQuoted = false
    var line = 1
    var start = 1
    var scalars = Array((text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text).unicodeScalars)
    if scalars.last != "\n" { scalars.append("\n") }
    var index = 0
    func endRecord() {
      fields.append(field)
      if !(fields.count == 1 && fields[0].isEmpty && !wasQuoted) { records.append((start, fields)) }
      fields = []
      field = ""
      wasQuoted = false
    }
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      if quoted {
        if scalar == "\"" {
          if index < scalars.count && scalars[index] == "\"" {
            field.unicodeScalars.append("\"")
            index += 1
          } else {
            quoted = false
          }
        } else {
          if scalar == "\n" { line += 1 }
          field.unicodeScalars.append(scalar)
        }
        continue
      }
      switch scalar {
      case "\"":
        guard field.isEmpty && !wasQuoted else {
          throw problem(file, line, "a quote inside an unquoted value (quote the whole value, and write \" as \"\")")
        }
        quoted = true
        wasQuoted = true
      case ",":
        fields.append(field)
        field = ""
        wasQuoted = false
      case "\r" where index < scalars.count && scalars[index] == "\n":
        continue
      case "\n":
        endRecord()
        line += 1
        start = line
      default:
        guard !wasQuoted else { throw problem(file, line, "text after a quoted value's closing quote") }
        field.unicodeScalars.append(scalar)
      }
    }
    if quoted { throw problem(file, start, "a quoted value is not closed") }
    return records
  }

  /// A CSV file's rows: the first record names the columns.
  public static func csv(_ text: String, file: String) throws -> ScenarioData {
    let records = try records(text, file: file)
    guard let header = records.first else { throw problem(file, nil, "the file is empty") }
    let names = header.fields.map { $0.trimming(.whitespaces) }
    for name in names { try checkName(name, file: file, line: header.line) }
    if let twice = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
      throw problem(file, header.line, "the column \"\(twice)\" is named twice")
    }
    let rows = try records.dropFirst().enumerated().map { offset, record in
      guard record.fields.count == names.count else {
        throw problem(
          file, record.line,
          "row \(offset + 1) has \(record.fields.count) value\(record.fields.count == 1 ? "" : "s"); the header names \(names.count) column\(names.count == 1 ? "" : "s")"
        )
      }
      return Row(line: record.line, values: zip(names, record.fields).map { (name: $0, value: $1) })
    }
    return try checked(rows, file: file)
  }

  // MARK: YAML

  /// A YAML file's rows: a list of mappings, each of names to texts.
  public static func yaml(_ text: String, file: String) throws -> ScenarioData {
    let node: YAMLNode?
    do {
      node = try YAMLNode.compose(yaml: text)
    } catch {
      throw problem(file, error.mark?.line, "not valid YAML: \(error.problem)")
    }
    guard let node, !node.isNull else { throw problem(file, nil, "the file is empty") }
    guard let items = node.sequence else {
      throw problem(file, node.mark.line, "expected a list of rows (- NAME: VALUE)")
    }
    let rows = try items.enumerated().map { offset, item in
      guard let mapping = item.mapping else {
        throw problem(file, item.mark.line, "row \(offset + 1): expected a mapping of names to values")
      }
      var seen = Set<String>()
      let values = try mapping.map { key, value -> (name: String, value: String) in
        guard let name = key.scalar?.string else { throw problem(file, key.mark.line, "keys must be plain names") }
        try checkName(name, file: file, line: key.mark.line)
        guard seen.insert(name).inserted else {
          throw problem(file, key.mark.line, "row \(offset + 1): \"\(name)\" is given twice")
        }
        guard let scalar = value.scalar else {
          throw problem(file, value.mark.line, "row \(offset + 1): \(name): expected a text, a number or true/false")
        }
        return (name: name, value: value.isNull ? "" : scalar.string)
      }
      return Row(line: item.mark.line, values: values)
    }
    return try checked(rows, file: file)
  }

  // MARK: Runs

  /// Each scenario once per row: its id followed by `.row` and the row's number, the row's
  /// values as variables (over the scenario's own of the same name: `vars`, `generate` and
  /// `from-env`).
  public func expand(_ scenarios: [Scenario]) -> [Scenario] {
    scenarios.flatMap { scenario in
      rows.enumerated().map { offset, row in
        var copy = scenario
        let names = Set(row.values.map(\.name))
        copy.id = "\(scenario.id).row\(offset + 1)"
        copy.vars = row.values + scenario.vars.filter { !names.contains($0.name) }
        copy.generate = scenario.generate.filter { !names.contains($0.name) }
        copy.fromEnvironment = scenario.fromEnvironment.filter { !names.contains($0.name) }
        copy.data = Scenario.DataRow(base: scenario.id, file: file, row: offset + 1, line: row.line)
        return copy
      }
    }
  }
}
