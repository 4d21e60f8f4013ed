import DeckCore
import DeckSupport
import FoundationEssentials
import KioskRules

/// What the terminal kiosk shows on each screen, laid out for the terminal's size: the spec's
/// screens, centred, redrawn in place.
struct KioskScreenView {
  /// Screen-local UI state that is not the app state: the text field, focus, the hidden menu.
  struct Interface {
    var pairingText = ""
    var showingSettings = false
    /// The focused consent button: true is Yes, false is No Thanks, nil is none.
    var consentYes: Bool?
    var spinnerFrame = 0
  }

  let state: KioskState
  let interface: Interface
  let columns: Int
  let rows: Int
  let now: Date
  let handoffURL: String?
  let qrCode: QRCode?
  let output: Output

  static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// Exactly `rows` lines, each narrower than the terminal.
  func frame() -> [String] {
    let content = body() + errorLines()
    // Lines wider than the terminal are wrapped (without their colours), never cut by it.
    let width = max(1, columns - 1)
    var lines = content.flatMap { line in
      TextLayout.visibleWidth(line) <= width ? [line] : wrap(TextLayout.plain(line), width: width)
    }
    if lines.count > rows { lines = Array(lines.prefix(rows)) }
    let top = max(0, (rows - lines.count) / 2)
    var frame = Array(repeating: "", count: top)
    frame += lines.map { TextLayout.centred($0, columns: columns) }
    while frame.count < rows { frame.append("") }
    return frame
  }

  /// The error under the screen's body, after a blank line (none on thank-you).
  func errorLines() -> [String] {
    guard let error = state.errorMessage, state.currentScreen != .thankYou else { return [] }
    return [""] + wrap(error, width: textWidth).map { output.style($0, .red) }
  }

  var textWidth: Int { max(10, min(64, columns - 4)) }

  var spinnerGlyph: String { Self.spinner[interface.spinnerFrame % Self.spinner.count] }

  func body() -> [String] {
    switch state.currentScreen {
    case .pairing: pairing()
    case .idle: interface.showingSettings ? settings() : idle()
    case .rating: rating()
    case .consent: consent()
    case .handoff: handoff()
    case .thankYou: thankYou()
    }
  }

  func pairing() -> [String] {
    let fieldWidth = max(10, min(40, columns - 6))
    var text = String(interface.pairingText.suffix(fieldWidth - 2))
    text += state.isBusy ? " " : "█"
    let field = text.padded(toLength: fieldWidth - 1)
    return [
      output.style("Boutique GEO", .bold),
      output.style("Kiosk Setup", .dim),
      "",
      "Enter Store ID:",
      "┌" + String(repeating: "─", count: fieldWidth) + "┐",
      "│ " + field + "│",
      "└" + String(repeating: "─", count: fieldWidth) + "┘",
      "",
      state.isBusy ? "\(spinnerGlyph) Pairing…" : button("Enter", "Pair Device"),
    ]
  }

  func idle() -> [String] {
    [
      output.style("Boutique GEO", .bold),
      "",
      "Tap to Start",
      "",
      output.style("\(spinnerGlyph) Waiting for the next customer…", .dim),
    ]
  }

  func settings() -> [String] {
    [
      output.style("Settings", .bold),
      "",
      "Store ID: \(TerminalText.sanitize(state.storePublicId ?? "-"))",
      "",
      "\(button("R", "Re-pair"))   \(button("Esc", "Cancel"))   \(button("Q", "Quit kiosk"))",
    ]
  }

  func rating() -> [String] {
    var lines = [output.style("Rate Your Experience", .bold), ""]
    if let order = state.currentOrder {
      lines.append("Total: \(order.formattedTotal)")
      let items = order.items.map(KioskRules.describe).joined(separator: " · ")
      lines += wrap(items, width: textWidth).map { output.style($0, .dim) }
    }
    let stars = (1...5).map { star in
      star <= state.selectedRating ? output.style("★", .yellow) : output.style("☆", .dim)
    }.joined(separator: " ")
    lines += ["", stars, output.style("1-5 or ←/→ to choose", .dim), ""]
    if state.isBusy {
      lines.append("\(spinnerGlyph) Submitting…")
    } else if state.selectedRating > 0 {
      lines.append(button("Enter", "Submit Rating"))
    } else {
      lines.append(output.style("[ Enter ] Submit Rating", .dim))
    }
    lines.append(button("Esc", "Cancel"))
    return lines
  }

  func consent() -> [String] {
    var lines = [
      output.style("Your Review", .bold),
      output.style("We've prepared this review based on your purchase", .dim),
      "",
    ]
    let room = max(3, rows - 10)
    var review = wrap("“\(state.generatedReview ?? "")”", width: textWidth)
    if review.count > room { review = Array(review.prefix(room - 1)) + ["…"] }
    lines += review
    lines.append("")
    if state.isBusy {
      lines.append("\(spinnerGlyph) Sending…")
    } else {
      let no = button("N", "No Thanks", focused: interface.consentYes == false)
      let yes = button("Y", "Yes, Continue", focused: interface.consentYes == true)
      lines.append("\(no)     \(yes)")
    }
    return lines
  }

  /// The QR code whenever the terminal has room for it (80×24 and 40×20 do), and the URL in
  /// lines that break only after a `/`, never inside the session's id. When rows are short the
  /// blank lines go first, then the subtitle and the title, then the countdown and Done share a
  /// line. A terminal too small for the code says what size shows it, above the URL.
  func handoff() -> [String] {
    let width = max(1, columns - 1)
    let room = rows - errorLines().count
    let address = "URL: \(TerminalText.sanitize(handoffURL ?? "-"))"
    let countdown = "Time remaining: \(state.remainingHandoffSeconds(at: now))s"
    let done = state.isBusy ? "\(spinnerGlyph) Finishing…" : button("Enter", "Done")
    let oneLine = "\(countdown)   \(TextLayout.plain(done))"
    let title = output.style("Scan to Post Your Review", .bold)
    // From the fullest layout to the most compact; the first that fits is shown.
    func layouts(_ code: [String], subtitle: [String]) -> [[String]] {
      let url = Self.breakAfterSlashes(address, width: width)
      var layouts = [
        [title] + subtitle + [""] + code + url + ["", countdown, "", done],
        [title] + subtitle + [""] + code + url + ["", countdown, done],
        [title] + subtitle + code + url + [countdown, done],
        [title] + code + url + [countdown, done],
        code + url + [countdown, done],
      ]
      if TextLayout.displayWidth(oneLine) <= width { layouts.append(code + url + [oneLine]) }
      return layouts
    }
    func firstFitting(_ layouts: [[String]]) -> [String] {
      layouts.first { $0.count <= room } ?? layouts[layouts.count - 1]
    }
    guard let qrCode else { return firstFitting(layouts([], subtitle: [])) }
    let size = qrCode.halfBlockSize()
    let subtitle = output.style("Use your phone's camera to scan the QR code", .dim)
    let drawn = layouts(qrCode.halfBlockLines(color: output.colorEnabled), subtitle: [subtitle])
    if size.columns <= width, let fitting = drawn.first(where: { $0.count <= room }) { return fitting }
    // The size of the most compact layout with the code.
    let neededColumns = max(size.columns, TextLayout.displayWidth(oneLine)) + 1
    let neededRows =
      size.rows + Self.breakAfterSlashes(address, width: neededColumns - 1).count + 1 + errorLines().count
    let message = "Make the terminal at least \(neededColumns)×\(neededRows) to show the QR code."
    return firstFitting(layouts(wrap(message, width: width).map { output.style($0, .yellow) }, subtitle: []))
  }

  /// `text` in lines of at most `width` columns, broken only after a `/` (a part wider than a
  /// line is cut at the width, the last resort).
  static func breakAfterSlashes(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var part = ""
    func place(_ part: String) {
      if !line.isEmpty, TextLayout.displayWidth(line + part) > width {
        lines.append(line)
        line = ""
      }
      for character in part {
        if !line.isEmpty, TextLayout.displayWidth(line) + TextLayout.displayWidth(character) > width {
          lines.append(line)
          line = ""
        }
        line.append(character)
      }
    }
    for character in text {
      part.append(character)
      if character == "/" {
        place(part)
        part = ""
      }
    }
    place(part)
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  func thankYou() -> [String] {
    [output.style("Thank You!", .bold), "", "We appreciate your feedback"]
  }

  func button(_ key: String, _ label: String, focused: Bool = false) -> String {
    let text = "[ \(key) ] \(label)"
    return focused && output.colorEnabled ? "\u{1B}[7m\(text)\u{1B}[0m" : (focused ? "> \(text) <" : text)
  }

  func wrap(_ text: String, width: Int) -> [String] { TextLayout.wrap(text, width: width) }
}
