import DeckSupport
import DeckValues

/// `--format csv`: a result's data as CSV with a header row, fields quoted as RFC 4180 says
/// (a field with a comma, a double quote or a line break is enclosed in double quotes, and its
/// double quotes are doubled). Lines end with LF.
///
/// - A list of records (objects): a row per record, a column per field, in the order the fields
///   first appear. Fields of nested objects become columns of their own (`timings.totalMs`).
/// - One record: two columns, `field,value`, a row per field.
/// - A list of plain values, or one: one column, `value`.
///
/// In a cell, null is empty, true and false and numbers are as in JSON, text is as is, and a
/// list is its JSON. An empty list prints nothing: it has no columns (nor has an empty object).
///
/// Text that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or
/// a carriage return: `=HYPERLINK(…)` in a server's name) gets a leading `'`, as OWASP
/// recommends, unless `raw` (`--csv-raw`). Numbers stay numbers: `-2` from JSON is written as is.
public enum CSVText {
  /// The header and the rows of a result.
  public struct Table: Equatable, Sendable {
    public var columns: [String]
    public var rows: [[String]]
  }

  /// The CSV text of the JSON of `value`; `forTerminal` strips control characters from cells.
  public static func render<Value: Encodable>(_ value: Value, forTerminal: Bool = false, raw: Bool = false) throws
    -> String
  {
    text(table(try JSONValue(encoding: value), raw: raw), forTerminal: forTerminal)
  }

  static func text(_ table: Table, forTerminal: Bool) -> String {
    guard !table.columns.isEmpty else { return "" }
    return ([table.columns] + table.rows).map { line($0, forTerminal: forTerminal) }.joined()
  }

  static func table(_ tree: JSONValue, raw: Bool = false) -> Table {
    switch tree {
    case .array(let items) where !items.isEmpty && items.allSatisfy(\.isObject):
      return records(items.map { fields($0, raw: raw) })
    case .array(let items):
      return Table(columns: items.isEmpty ? [] : ["value"], rows: items.map { [cell($0, raw: raw)] })
    case .object:
      return Table(columns: ["field", "value"], rows: fields(tree, raw: raw).map { [$0.key, $0.cell] })
    default:
      return Table(columns: ["value"], rows: [[cell(tree, raw: raw)]])
    }
  }

  /// Rows of records under the union of their columns, in order of first appearance.
  static func records(_ records: [[(key: String, cell: String)]]) -> Table {
    var columns: [String] = []
    var seen = Set<String>()
    for record in records {
      for field in record where seen.insert(field.key).inserted { columns.append(field.key) }
    }
    return Table(columns: columns, rows: records.map { row(of: $0, in: columns) })
  }

  /// A record's cells under `columns` (a column it lacks is empty; a field not among them is left out).
  static func row(of record: [(key: String, cell: String)], in columns: [String]) -> [String] {
    let cells = Dictionary(record.map { ($0.key, $0.cell) }, uniquingKeysWith: { first, _ in first })
    return columns.map { cells[$0] ?? "" }
  }

  /// An object's fields, nested objects flattened into `outer.inner` keys (an empty one has none).
  static func fields(_ tree: JSONValue, raw: Bool = false) -> [(key: String, cell: String)] {
    guard case .object = tree else { return [(key: "value", cell: cell(tree, raw: raw))] }
    return flattened(tree, raw: raw).map { (key: neutralized($0.key, raw: raw), cell: $0.cell) }
  }

  /// An object's fields under their `outer.inner` keys (the keys as they are).
  private static func flattened(_ tree: JSONValue, raw: Bool) -> [(key: String, cell: String)] {
    guard case .object(let object) = tree else { return [] }
    return object.entries.flatMap { member -> [(key: String, cell: String)] in
      if case .object = member.value {
        return flattened(member.value, raw: raw).map { (key: member.key + "." + $0.key, cell: $0.cell) }
      }
      return [(key: member.key, cell: cell(member.value, raw: raw))]
    }
  }

  static func cell(_ tree: JSONValue, raw: Bool = false) -> String {
    switch tree {
    case .null: ""
    case .bool(let flag): flag ? "true" : "false"
    case .number(let number): number.literal
    case .string(let text): neutralized(text, raw: raw)
    case .array, .object: tree.compactJSON
    }
  }

  /// Text a spreadsheet would take for a formula, with a leading `'` (unless `raw`).
  static func neutralized(_ text: String, raw: Bool) -> String {
    guard !raw, let first = text.utf8.first, formulaStarts.contains(first) else { return text }
    return "'" + text
  }

  static let formulaStarts: Set<UInt8> = [
    UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
  ]

  /// One line of fields, each quoted when RFC 4180 requires it.
  static func line(_ cells: [String], forTerminal: Bool) -> String {
    cells.map { quoted(forTerminal ? TerminalText.sanitize($0, keepNewlines: true) : $0) }.joined(separator: ",")
      + "\n"
  }

  /// Per code point, not per `Character`: a quote followed by a combining mark is one
  /// Character, which a per-Character test would leave unquoted.
  static func quoted(_ field: String) -> String {
    let special: Set<Unicode.Scalar> = [",", "\"", "\n", "\r"]
    guard field.unicodeScalars.contains(where: special.contains) else { return field }
    var text = String.UnicodeScalarView()
    text.append("\"")
    for scalar in field.unicodeScalars {
      if scalar == "\"" { text.append("\"") }
      text.append(scalar)
    }
    text.append("\"")
    return String(text)
  }
}

extension JSONValue {
  var isObject: Bool {
    if case .object = self { return true }
    return false
  }
}
