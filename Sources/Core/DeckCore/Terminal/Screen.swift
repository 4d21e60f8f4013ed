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

  public func draw(_ lines: [String], columns: Int, rows: Int) {
    let lines = lines.map(TerminalText.sanitizeKeepingColors)
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
  /// Words wrapped to `width` columns (a longer word is cut); paragraphs split at newlines.
  /// The text loses its control characters (tabs become spaces): what is wrapped is usually
  /// text from a server (a question, an error message, a review).
  public static func wrap(_ text: String, width: Int) -> [String] {
    let text = TerminalText.sanitize(text, keepNewlines: true).replacingOccurrences(of: "\t", with: " ")
    let width = max(1, width)
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ") {
        var word = String(word)
        while word.count > width {
          if !line.isEmpty {
            lines.append(line)
            line = ""
          }
          lines.append(String(word.prefix(width)))
          word = String(word.dropFirst(width))
        }
        if line.isEmpty {
          line = word
        } else if line.count + 1 + word.count <= width {
          line += " " + word
        } else {
          lines.append(line)
          line = word
        }
      }
      lines.append(line)
    }
    return lines
  }

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

  /// Columns a line takes: its characters, without escape sequences.
  public static func visibleWidth(_ text: String) -> Int { plain(text).count }

  /// The line centred in `columns` (left as it is when it does not fit).
  public static func centred(_ line: String, columns: Int) -> String {
    let pad = max(0, (columns - 1 - visibleWidth(line)) / 2)
    return String(repeating: " ", count: pad) + line
  }
}
