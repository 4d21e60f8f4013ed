import DeckSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Output {
  /// The terminal's columns: `COLUMNS` when it is a positive number (as `ls` and `man` honour
  /// it), else what the terminal on stdout says, else 80.
  static func terminalColumns(environment: [String: String], fd: Int32) -> Int {
    if let value = environment["COLUMNS"].flatMap({ Int($0) }), value > 0 { return value }
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }

  /// `text` for a person on stdout: on a terminal, wrapped at word boundaries to its width with
  /// every line after the first indented by `indent` columns; elsewhere as it is.
  public func paragraph(_ text: String, indent: Int = 0) {
    writeOut(TextLayout.wrapLines(Self.plain(text), columns: columns, continuation: indent) + "\n")
  }
}

extension String {
  /// The text without the spaces at its end.
  var trimmingTrailingSpaces: String {
    var text = Substring(self)
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }
}

extension TextLayout {
  /// Plain `text` for a terminal `columns` wide (nil: as it is): each line wider than that is
  /// wrapped at word boundaries, its later lines indented `continuation` columns (by default as
  /// the line itself is). Words are never cut.
  public static func wrapLines(_ text: String, columns: Int?, continuation: Int? = nil) -> String {
    guard let columns else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      let line = String(line)
      guard displayWidth(line) > columns else { return line }
      let lead = String(line.prefix { $0 == " " })
      let pad = continuation.map { String(repeating: " ", count: $0) } ?? lead
      let width = max(16, columns - max(lead.count, pad.count))
      return wrap(String(line.dropFirst(lead.count)), width: width, cutLongWords: false).enumerated()
        .map { ($0 == 0 ? lead : pad) + $1 }.joined(separator: "\n")
    }.joined(separator: "\n")
  }

  /// `label`, two spaces and `text`, for a terminal `columns` wide (nil: one line, as given).
  /// A text that does not fit wraps at word boundaries under itself (`indent` columns in, the
  /// label's width and the gap); when that leaves fewer than 16 columns, or a word wider than
  /// what it leaves, the text goes on the lines below the label, four columns in (fewer for a
  /// word that would not fit there). A word is never cut: a URL or an id wider than
  /// the terminal stays whole, for copying.
  public static func hanging(_ text: String, after label: String, indent: Int, columns: Int?) -> [String] {
    let single = label + "  " + text
    guard let columns, displayWidth(single) > columns else { return [single] }
    let longestWord = text.split(separator: " ").map { displayWidth(String($0)) }.max() ?? 0
    if columns - indent >= 16, longestWord <= columns - indent {
      let lines = wrap(text, width: columns - indent, cutLongWords: false)
      let pad = String(repeating: " ", count: indent)
      return lines.enumerated().map { $0 == 0 ? label + "  " + $1 : pad + $1 }
    }
    // Four columns in, fewer for a word that fills the line (a long path or URL).
    let below = max(0, min(4, columns - longestWord))
    let pad = String(repeating: " ", count: below)
    return [label.trimmingTrailingSpaces]
      + wrap(text, width: max(16, columns - below), cutLongWords: false).map { pad + $0 }
  }
}

/// A table laid out for a terminal `columns` wide:
/// - as an aligned table when it fits (or when there is no terminal: `columns` nil);
/// - else with its widest column wrapped inside its cells, when the other columns fit and leave
///   it at least 16 columns and no word in it is wider than that;
/// - else as records, one field per line (`NAME  value`), records apart by a blank line, as
///   psql's and pgcli's expanded display: nothing cut, every id whole.
public struct TableLayout {
  public let headers: [String]
  public let rows: [[String]]
  public let columns: Int?

  /// Each column's width as the widest of its header and cells.
  let naturalWidths: [Int]

  public init(headers: [String], rows: [[String]], columns: Int?) {
    self.headers = headers
    let rows = rows.map { row in (0..<headers.count).map { $0 < row.count ? row[$0] : "" } }
    self.rows = rows
    self.columns = columns
    naturalWidths = headers.indices.map { index in
      ([headers[index]] + rows.map { $0[index] }).map(TextLayout.displayWidth).max() ?? 0
    }
  }

  /// How the table is laid out.
  public enum Shape: Equatable {
    case table
    case wrapped(column: Int, width: Int)
    case records
  }

  public var shape: Shape {
    let widths = naturalWidths
    let gaps = 2 * max(0, headers.count - 1)
    guard let columns, widths.reduce(gaps, +) > columns,
      let widest = widths.indices.max(by: { widths[$0] < widths[$1] })
    else { return .table }
    let room = columns - (widths.reduce(gaps, +) - widths[widest])
    let longestWord =
      ([headers[widest]] + rows.map { $0[widest] })
      .flatMap { $0.split(separator: " ") }.map { TextLayout.displayWidth(String($0)) }.max() ?? 0
    return room >= 16 && longestWord <= room ? .wrapped(column: widest, width: room) : .records
  }

  /// The lines to print. `header` styles the header line, `label` a record's field names, and
  /// `cell` a cell's text as shown (all of it, or one wrapped line of it), given its row,
  /// column and whole text; padding is added after styling, so widths are those of the text.
  public func lines(
    header: (String) -> String, label: (String) -> String, cell: (Int, Int, String, String) -> String
  ) -> [String] {
    switch shape {
    case .table: return aligned(widths: naturalWidths, wrap: nil, header: header, cell: cell)
    case .wrapped(let column, let width):
      var widths = naturalWidths
      widths[column] = width
      return aligned(widths: widths, wrap: column, header: header, cell: cell)
    case .records:
      let keyWidth = headers.map(TextLayout.displayWidth).max() ?? 0
      var lines: [String] = []
      for (rowIndex, row) in rows.enumerated() {
        if rowIndex > 0 { lines.append("") }
        for (column, text) in row.enumerated() {
          let name = label(
            headers[column] + String(repeating: " ", count: keyWidth - TextLayout.displayWidth(headers[column])))
          let shown = TextLayout.hanging(text, after: name, indent: keyWidth + 2, columns: columns)
          lines += shown.enumerated().map { index, line in
            // The value's own text is styled: the label's part of the first line is kept as is.
            index == 0 ? name + "  " + cell(rowIndex, column, text, String(line.dropFirst(name.count + 2))) : line
          }
        }
      }
      return lines
    }
  }

  private func aligned(
    widths: [Int], wrap: Int?, header: (String) -> String, cell: (Int, Int, String, String) -> String
  ) -> [String] {
    func render(_ cells: [String], style: (Int, String) -> String) -> String {
      cells.enumerated().map { index, text in
        let padding = index == cells.count - 1 ? 0 : max(0, widths[index] - TextLayout.displayWidth(text))
        return style(index, text) + String(repeating: " ", count: padding)
      }.joined(separator: "  ").trimmingTrailingSpaces
    }
    var lines = [header(render(headers) { $1 })]
    for (rowIndex, row) in rows.enumerated() {
      let parts = wrap.map { TextLayout.wrap(row[$0], width: widths[$0], cutLongWords: false) } ?? []
      for line in 0..<max(1, parts.count) {
        let cells = row.enumerated().map { index, text in index == wrap ? parts[line] : line == 0 ? text : "" }
        lines.append(
          render(cells) { column, shown in shown.isEmpty ? shown : cell(rowIndex, column, row[column], shown) })
      }
    }
    return lines
  }
}
