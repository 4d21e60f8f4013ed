import Foundation

/// A terminal screen as xterm keeps it, for what deck's full-screen apps send: cursor moves
/// (CUP), erase (ED 2, EL), text with automatic margins (a character written past the last
/// column wraps to the next line, and a line feed at the bottom scrolls), and the colours of
/// each cell (SGR), so that a drawing can be seen as a person sees it: `pixels` renders the
/// half blocks of a QR code as light and dark modules.
package struct ScreenModel {
  /// Whether a cell's foreground and background are light, on a light-on-dark terminal (the
  /// default colours).
  package struct Shade: Equatable, Sendable {
    package var foregroundLight = true
    package var backgroundLight = false
  }

  package private(set) var columns: Int
  package private(set) var rows: Int
  private var grid: [[Character]]
  private var shades: [[Shade]]
  private var row = 0
  private var column = 0
  private var pendingWrap = false
  /// The colours of the text written next (SGR).
  private var pen = Pen()
  /// Something scrolled the screen since the last clear.
  package private(set) var scrolled = false

  package init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    shades = Array(repeating: Array(repeating: Shade(), count: columns), count: rows)
  }

  package var lines: [String] { grid.map { String($0) } }
  package var text: String {
    lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }.joined(separator: "\n")
  }
  /// The text with its lines joined by spaces (wrapped sentences read whole).
  package var flat: String { text.split(separator: "\n").joined(separator: " ") }
  package var lastColumnUnused: Bool { grid.allSatisfy { $0.last == " " } }

  /// The screen as a greyscale image (PGM, P5), each cell one module wide and two tall, as a
  /// terminal cell shows a half block: `█` both halves in the foreground colour, `▀` the top
  /// half, `▄` the bottom half, any other character both halves in the background colour (text
  /// is not drawn). Each module is `scale` pixels square.
  package func pixels(scale: Int = 4) -> Data {
    let width = columns * scale
    let height = rows * 2 * scale
    var image = Data("P5\n\(width) \(height)\n255\n".utf8)
    image.reserveCapacity(image.count + width * height)
    for y in 0..<(rows * 2) {
      var line = [UInt8]()
      line.reserveCapacity(width)
      for x in 0..<columns {
        let shade = shades[y / 2][x]
        let foreground: Bool
        switch grid[y / 2][x] {
        case "█": foreground = true
        case "▀": foreground = y % 2 == 0
        case "▄": foreground = y % 2 == 1
        default: foreground = false
        }
        let light = foreground ? shade.foregroundLight : shade.backgroundLight
        line += Array(repeating: light ? 0xFF : 0x00, count: scale)
      }
      for _ in 0..<scale { image.append(contentsOf: line) }
    }
    return image
  }

  package mutating func resize(columns: Int, rows: Int) {
    grid = (0..<rows).map { index in
      let old = index < grid.count ? grid[index] : []
      return (0..<columns).map { $0 < old.count ? old[$0] : " " }
    }
    shades = (0..<rows).map { index in
      let old = index < shades.count ? shades[index] : []
      return (0..<columns).map { $0 < old.count ? old[$0] : Shade() }
    }
    self.columns = columns
    self.rows = rows
    row = min(row, rows - 1)
    column = min(column, columns - 1)
    pendingWrap = false
  }

  package mutating func feed(_ scalars: ArraySlice<Unicode.Scalar>) {
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      index += 1
      switch scalar {
      case "\u{1B}":
        guard index < scalars.endIndex else { return }
        let kind = scalars[index]
        index += 1
        if kind == "[" {
          var parameters = ""
          while index < scalars.endIndex, !(0x40...0x7E).contains(scalars[index].value) {
            parameters.unicodeScalars.append(scalars[index])
            index += 1
          }
          guard index < scalars.endIndex else { return }
          control(final: scalars[index], parameters)
          index += 1
        } else if kind == "(" || kind == ")" {
          index += 1
        }
      case "\r":
        column = 0
        pendingWrap = false
      case "\n":
        lineFeed()
      case "\u{07}", "\u{08}":
        break
      default:
        guard scalar.value >= 0x20 else { break }
        put(Character(scalar))
      }
    }
  }

  private mutating func lineFeed() {
    pendingWrap = false
    if row == rows - 1 {
      grid.removeFirst()
      grid.append(Array(repeating: " ", count: columns))
      shades.removeFirst()
      shades.append(Array(repeating: Shade(), count: columns))
      scrolled = true
    } else {
      row += 1
    }
  }

  private mutating func put(_ character: Character) {
    if pendingWrap {
      column = 0
      lineFeed()
    }
    grid[row][column] = character
    shades[row][column] = pen.shade
    if column == columns - 1 { pendingWrap = true } else { column += 1 }
  }

  private mutating func control(final: Unicode.Scalar, _ parameters: String) {
    let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
    switch final {
    case "H", "f":
      row = min(rows - 1, max(0, (numbers.first ?? 1) - 1))
      column = min(columns - 1, max(0, (numbers.count > 1 ? numbers[1] : 1) - 1))
      pendingWrap = false
    case "J" where numbers.first == 2:
      grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
      shades = Array(repeating: Array(repeating: Shade(), count: columns), count: rows)
      scrolled = false
    case "K":
      for index in column..<columns {
        grid[row][index] = " "
        shades[row][index] = Shade()
      }
    case "m":
      pen.apply(numbers.isEmpty ? [0] : numbers)
    default:
      break  // modes
    }
  }

  /// The SGR state: which colours are light (black, and the bright black of 90/100, are
  /// dark; the other colours light) and reverse video.
  private struct Pen {
    var foreground: Bool?
    var background: Bool?
    var reverse = false

    var shade: Shade {
      let foregroundLight = foreground ?? true
      let backgroundLight = background ?? false
      return reverse
        ? Shade(foregroundLight: backgroundLight, backgroundLight: foregroundLight)
        : Shade(foregroundLight: foregroundLight, backgroundLight: backgroundLight)
    }

    mutating func apply(_ codes: [Int]) {
      var index = 0
      while index < codes.count {
        let code = codes[index]
        switch code {
        case 0: self = Pen()
        case 7: reverse = true
        case 27: reverse = false
        case 30...37, 90...97: foreground = code != 30 && code != 90
        case 39: foreground = nil
        case 40...47, 100...107: background = code != 40 && code != 100
        case 49: background = nil
        case 38, 48:
          // 256 colours or RGB: not drawn by deck; skip their arguments.
          index += codes.count > index + 1 && codes[index + 1] == 5 ? 2 : 4
        default: break
        }
        index += 1
      }
    }
  }
}
