import DeckCore

/// `deck qa coverage`'s table for a terminal `columns` wide: the short columns as they are,
/// and the text columns (the scenarios or reason, and the row's text) wrapped inside their
/// cells, sharing the room left in proportion to their widths, so that no line is wider than
/// the terminal. When that room is less than ``stackBelow`` (an 80-column terminal), the last
/// text column goes on the lines under its row, four columns in, wrapped to the terminal. A
/// word wider than its cell (an id) is kept whole and may overflow. Without a terminal
/// (`columns` nil), or when they fit, one line a row.
struct CoverageLayout {
  var headers: [String]
  var rows: [[String]]
  /// The columns that wrap.
  var wrapping: Set<Int>
  var columns: Int?

  static let gap = 2
  static let narrowest = 16
  /// Less room than this for the text columns side by side stacks the last one.
  static let stackBelow = 60

  var natural: [Int] {
    headers.indices.map { index in
      ([headers[index]] + rows.map { index < $0.count ? $0[index] : "" }).map(TextLayout.displayWidth).max() ?? 0
    }
  }

  /// Whether the last text column goes under its row.
  var stacked: Bool {
    guard let columns, wrapping.count > 1 else { return false }
    let natural = natural
    let gaps = Self.gap * max(0, headers.count - 1)
    guard natural.reduce(gaps, +) > columns else { return false }
    let fixed = natural.indices.filter { !wrapping.contains($0) }.reduce(gaps) { $0 + natural[$1] }
    return columns - fixed < Self.stackBelow
  }

  /// Each column's width.
  var widths: [Int] {
    let natural = natural
    let total = natural.reduce(Self.gap * max(0, headers.count - 1), +)
    guard let columns, total > columns else { return natural }
    let fixed = natural.indices.filter { !wrapping.contains($0) }.reduce(Self.gap * max(0, headers.count - 1)) {
      $0 + natural[$1]
    }
    let wrapped = wrapping.sorted()
    let room = max(Self.narrowest * wrapped.count, columns - fixed)
    let want = wrapped.reduce(0) { $0 + natural[$1] }
    var widths = natural
    var left = room
    for (offset, index) in wrapped.enumerated() {
      let share =
        offset == wrapped.count - 1 ? left : max(Self.narrowest, room * natural[index] / max(1, want))
      widths[index] = min(natural[index], max(Self.narrowest, share))
      left -= widths[index]
    }
    // Room a column did not need goes to the others.
    var spare = room - wrapped.reduce(0) { $0 + widths[$1] }
    for index in wrapped where spare > 0 && widths[index] < natural[index] {
      let more = min(spare, natural[index] - widths[index])
      widths[index] += more
      spare -= more
    }
    return widths
  }

  /// The lines, each cell's text given to `cell` (row, column, the line of it shown; row -1 for
  /// the header) to style before padding.
  func lines(cell: (Int, Int, String) -> String = { _, _, text in text }) -> [String] {
    guard stacked, let below = wrapping.max(), let columns else { return grid(cell: cell) }
    let top = CoverageLayout(
      headers: headers.enumerated().filter { $0.offset != below }.map(\.element),
      rows: rows.map { $0.enumerated().filter { $0.offset != below }.map(\.element) },
      wrapping: wrapping.subtracting([below]), columns: columns)
    let pad = String(repeating: " ", count: 4)
    func under(_ row: Int, _ text: String) -> [String] {
      TextLayout.wrap(text, width: max(Self.narrowest, columns - pad.count), cutLongWords: false).map {
        pad + cell(row, below, $0)
      }
    }
    let heads = top.grid { row, column, text in cell(row, column < below ? column : column + 1, text) }
    let topWidths = top.widths
    let headerHeight = top.height(top.headers, widths: topWidths)
    var lines = Array(heads[0..<headerHeight]) + under(-1, headers[below])
    var index = headerHeight
    for (row, cells) in rows.enumerated() {
      // The top layout's lines of this row: as many as its tallest cell took.
      let height = top.height(top.rows[row], widths: topWidths)
      lines += heads[index..<index + height]
      index += height
      if below < cells.count, !cells[below].isEmpty { lines += under(row, cells[below]) }
    }
    return lines
  }

  /// How many lines a row of `cells` takes in ``grid(cell:)``.
  func height(_ cells: [String], widths: [Int]) -> Int {
    cells.enumerated().map { index, text in
      wrapping.contains(index) && TextLayout.displayWidth(text) > widths[index]
        ? TextLayout.wrap(text, width: widths[index], cutLongWords: false).count : 1
    }.max() ?? 1
  }

  /// The columns side by side, the text columns wrapped in their cells.
  func grid(cell: (Int, Int, String) -> String) -> [String] {
    let widths = widths
    func render(_ row: Int, _ cells: [String]) -> [String] {
      let parts = cells.enumerated().map { index, text -> [String] in
        guard wrapping.contains(index), TextLayout.displayWidth(text) > widths[index] else { return [text] }
        return TextLayout.wrap(text, width: widths[index], cutLongWords: false)
      }
      let height = parts.map(\.count).max() ?? 1
      return (0..<height).map { line in
        var text = ""
        for (index, part) in parts.enumerated() {
          let shown = line < part.count ? part[line] : ""
          let styled = shown.isEmpty ? shown : cell(row, index, shown)
          text += styled
          if index < parts.count - 1 {
            text += String(repeating: " ", count: max(0, widths[index] - TextLayout.displayWidth(shown)) + Self.gap)
          }
        }
        return text.trimmingTrailingSpacesOnly
      }
    }
    return render(-1, headers) + rows.enumerated().flatMap { render($0, $1) }
  }
}

extension String {
  fileprivate var trimmingTrailingSpacesOnly: String {
    var text = Substring(self)
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }
}
