import DeckSupport

/// Draws full-screen frames on a raw terminal: only the lines that changed are rewritten, and
/// everything after a resize (or `invalidate()`). A frame is text and colours only: every
/// control character but the ESC of a colour (SGR) sequence is removed before it is drawn, so
/// no text in a frame can move the cursor, retitle or clear the terminal or ring the bell.
public final class FrameRenderer {
  private var last: [String] = []
  private var lastSize = (columns: 0, rows: 0)
  private let write: (String) -> Void

  /// `write` sends the escape sequences and text to the terminal (stdout by default).
  public init(write: @escaping (String) -> Void = RawTerminal.output) {
    self.write = write
  }

  /// Draws `lines`; a line wider than `columns` is cut with an ellipsis (a line the terminal
  /// wrapped would scroll the whole frame).
  public func draw(_ lines: [String], columns: Int, rows: Int) {
    let lines = lines.map { TextLayout.fit(TerminalText.sanitizeKeepingColors($0), width: columns) }
    var text = ""
    let full = columns != lastSize.columns || rows != lastSize.rows
    if full {
      text += "\u{1B}[H\u{1B}[2J"
      last = []
    }
    for (row, line) in lines.prefix(rows).enumerated() {
      if !full, row < last.count, last[row] == line { continue }
      text += "\u{1B}[\(row + 1);1H\(line)\u{1B}[0m\u{1B}[K"
    }
    // Lines the previous frame had and this one has not are cleared.
    if !full, last.count > lines.count {
      for row in lines.count..<min(last.count, rows) { text += "\u{1B}[\(row + 1);1H\u{1B}[K" }
    }
    last = lines
    lastSize = (columns, rows)
    if !text.isEmpty { write(text) }
  }

  /// Forget what is on screen: the next draw repaints everything.
  public func invalidate() { lastSize = (0, 0) }
}

/// Laying out text for a fixed-width terminal screen.
public enum TextLayout {
  /// Words wrapped to `width` columns (a longer word is cut, unless `cutLongWords` is false:
  /// then it has a line of its own); paragraphs split at newlines.
  /// The text loses its control characters (tabs become spaces): what is wrapped is usually
  /// text from a server (a question, an error message, a review). Widths are display widths
  /// (`displayWidth`): a wide character takes two columns.
  public static func wrap(_ text: String, width: Int, cutLongWords: Bool = true) -> [String] {
    let text = TerminalText.sanitize(text, keepNewlines: true).replacing("\t", with: " ")
    let width = max(1, width)
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      var lineWidth = 0
      for word in paragraph.split(separator: " ") {
        var word = String(word)
        var wordWidth = displayWidth(word)
        while cutLongWords, wordWidth > width {
          if !line.isEmpty {
            lines.append(line)
            line = ""
            lineWidth = 0
          }
          let (head, rest) = cut(word, width: width)
          lines.append(head)
          word = rest
          wordWidth = displayWidth(word)
        }
        if line.isEmpty {
          line = word
          lineWidth = wordWidth
        } else if lineWidth + 1 + wordWidth <= width {
          line += " " + word
          lineWidth += 1 + wordWidth
        } else {
          lines.append(line)
          line = word
          lineWidth = wordWidth
        }
      }
      lines.append(line)
    }
    return lines
  }

  /// The longest head of plain `text` that fits `width` columns, and the rest.
  static func cut(_ text: String, width: Int) -> (String, String) {
    var used = 0
    var index = text.startIndex
    while index < text.endIndex {
      let next = used + displayWidth(text[index])
      if next > width, index > text.startIndex { break }
      used = next
      index = text.index(after: index)
    }
    return (String(text[..<index]), String(text[index...]))
  }

  /// Items joined with `separator` into lines of at most `width` columns, an item never split
  /// across lines (one wider than the width is cut with an ellipsis): for hint lines such as
  /// "1-5 answer · ↑↓ question · q quit", which wrap between their parts.
  public static func wrapItems(_ items: [String], separator: String = " · ", width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for item in items {
      let item = fit(item, width: width)
      if line.isEmpty {
        line = item
      } else if displayWidth(line) + displayWidth(separator) + displayWidth(item) <= width {
        line += separator + item
      } else {
        lines.append(line)
        line = item
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// The line cut to `width` columns, ending in "…" when it was cut; escape sequences (colours)
  /// are kept and take no columns.
  public static func fit(_ line: String, width: Int) -> String {
    guard displayWidth(line) > width else { return line }
    guard width > 0 else { return "" }
    var result = ""
    var used = 0
    var inEscape = false
    var full = false
    for character in line {
      if inEscape {
        result.append(character)
        if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value), character != "[" {
          inEscape = false
        }
        continue
      }
      if character == "\u{1B}" {
        inEscape = true
        result.append(character)
        continue
      }
      if full { continue }
      let characterWidth = displayWidth(character)
      if used + characterWidth > width - 1 {
        full = true
        continue
      }
      used += characterWidth
      result.append(character)
    }
    return result + "…"
  }

  /// Columns a line takes on a terminal: escape sequences take none, East Asian wide and
  /// emoji-presentation characters two, combining marks and other zero-width characters none.
  public static func displayWidth(_ text: String) -> Int {
    plain(text).reduce(0) { $0 + displayWidth($1) }
  }

  /// Columns one character (grapheme cluster) takes.
  public static func displayWidth(_ character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    let value = first.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    switch first.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) {
      return 2
    }
    return wideRanges.contains { $0.contains(value) } ? 2 : 1
  }

  /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth W and F, by block).
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]

  /// The text without escape sequences.
  public static func plain(_ text: String) -> String {
    var result = ""
    var inEscape = false
    for scalar in text.unicodeScalars {
      if inEscape {
        if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
        continue
      }
      if scalar == "\u{1B}" {
        inEscape = true
        continue
      }
      result.unicodeScalars.append(scalar)
    }
    return result
  }

  /// Columns a line takes (`displayWidth`).
  public static func visibleWidth(_ text: String) -> Int { displayWidth(text) }

  /// The line centred in `columns` (left as it is when it does not fit).
  public static func centred(_ line: String, columns: Int) -> String {
    let pad = max(0, (columns - 1 - visibleWidth(line)) / 2)
    return String(repeating: " ", count: pad) + line
  }

  /// The frame of a full-screen program whose terminal is smaller than it needs: "Make the
  /// terminal at least W×H", with its present size and `note` (what keys still do), every
  /// line fitted to the terminal. The program draws it instead of a frame that would not fit,
  /// and its normal frame again after the resize (SIGWINCH) that makes room.
  public static func tooSmall(
    columns: Int, rows: Int, minimum: (columns: Int, rows: Int), what: String, note: String
  ) -> [String] {
    let width = max(1, columns - 1)
    let lines =
      wrap(
        "Make the terminal at least \(minimum.columns)×\(minimum.rows) for \(what) (it is \(columns)×\(rows)).",
        width: width) + [""] + wrap(note, width: width)
    return Array(lines.prefix(max(0, rows))).map { fit($0, width: width) }
  }
}
