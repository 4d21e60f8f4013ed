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
    var content = body()
    if let error = state.errorMessage, state.currentScreen != .thankYou {
      content.append("")
      content += wrap(error, width: textWidth).map { output.style($0, .red) }
    }
    // Lines wider than the terminal are wrapped (without their colours), never cut by it.
    let width = max(1, columns - 1)
    content = content.flatMap { line in
      TextLayout.visibleWidth(line) <= width ? [line] : wrap(TextLayout.plain(line), width: width)
    }
    if content.count > rows { content = Array(content.prefix(rows)) }
    let top = max(0, (rows - content.count) / 2)
    var lines = Array(repeating: "", count: top)
    lines += content.map { TextLayout.centred($0, columns: columns) }
    while lines.count < rows { lines.append("") }
    return lines
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

  func handoff() -> [String] {
    var lines = [
      output.style("Scan to Post Your Review", .bold),
      output.style("Use your phone's camera to scan the QR code", .dim),
      "",
    ]
    if let qrCode {
      let size = qrCode.halfBlockSize()
      if size.columns < columns - 1, size.rows + 9 <= rows {
        lines += qrCode.halfBlockLines(color: output.colorEnabled)
      } else {
        lines.append(output.style("(make the terminal larger to show the QR code)", .yellow))
      }
    }
    lines.append("URL: \(TerminalText.sanitize(handoffURL ?? "-"))")
    lines.append("")
    lines.append("Time remaining: \(state.remainingHandoffSeconds(at: now))s")
    lines.append("")
    lines.append(state.isBusy ? "\(spinnerGlyph) Finishing…" : button("Enter", "Done"))
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
