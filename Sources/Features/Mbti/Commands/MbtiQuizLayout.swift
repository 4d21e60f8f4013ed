import DeckCore
import MbtiRules

/// The full-screen quiz's frame for a terminal size: a pure function of the quiz's state, so
/// each size is unit-tested. Every line fits the width (text is wrapped, or cut with "…"); the
/// focused question's scale, with the value the cursor is on, is always on screen; below
/// `minimum` the frame asks for a bigger terminal instead.
///
/// The scale takes the room there is: "○ 1 Strongly Disagree  ○ 2 Disagree  [○ 3 Neutral] …"
/// when the labels fit on one line; else the numbers alone with the label of the cursor's value
/// (or of the answer) beside them, "○ 1  ○ 2  [○ 3]  ● 4  ○ 5   Neutral", or on the next line
/// when even that does not fit.
struct MbtiQuizLayout {
  enum Phase: Equatable {
    case loading
    case loadFailed(message: String, hint: String?)
    case answering(MbtiQuiz)
    case result(MbtiStore.SavedResult, revealed: Double)
  }

  /// The smallest terminal the quiz draws on.
  static let minimum = (columns: 40, rows: 12)

  var phase: Phase
  /// The value ←/→ point at for the focused question.
  var cursor = 3
  var status: String?
  var askingToQuit = false
  var style: (String, Output.Style) -> String = { text, _ in text }

  /// Exactly `rows` lines, none wider than `columns - 1` (the last column stays free, so no
  /// terminal wraps a line).
  func frame(columns: Int, rows: Int) -> [String] {
    guard rows > 0, columns > 0 else { return [] }
    if columns < Self.minimum.columns || rows < Self.minimum.rows {
      let note: String
      switch phase {
      case .answering where askingToQuit:
        note = "Quit? k keeps your answers for --resume, d discards them, Esc goes on."
      case .answering: note = "Your answers are kept. q quits."
      case .result: note = "Your result is saved. Any key leaves."
      case .loading, .loadFailed: note = "q quits."
      }
      return pad(
        TextLayout.tooSmall(
          columns: columns, rows: rows, minimum: Self.minimum, what: "the quiz", note: note),
        rows: rows)
    }
    let width = columns - 1
    var lines: [String]
    switch phase {
    case .loading:
      lines = [style("MBTI quiz", .bold), "", "Loading questions…"]
    case .loadFailed(let message, let hint):
      lines = [style("MBTI quiz", .bold), "", style("Couldn’t load questions", .bold)]
      let detail = message.hasPrefix("Couldn’t load questions: ") ? String(message.dropFirst(25)) : message
      lines += TextLayout.wrap(detail, width: width).prefix(max(1, rows - 8))
      if let hint { lines += TextLayout.wrap(hint, width: width).prefix(2) }
      lines += [""] + TextLayout.wrapItems(["[r] Retry", "[q] Cancel"], separator: "   ", width: width)
    case .answering(let quiz):
      lines = quizLines(quiz, width: width, rows: rows)
    case .result(let saved, let revealed):
      lines = resultLines(saved, revealed: revealed, width: width)
    }
    return pad(lines.map { TextLayout.fit($0, width: width) }, rows: rows)
  }

  /// The columns a frame line takes (escape sequences take none, wide characters two).
  static func width(of line: String) -> Int { TextLayout.displayWidth(line) }

  func pad(_ lines: [String], rows: Int) -> [String] {
    var lines = Array(lines.prefix(rows))
    while lines.count < rows { lines.append("") }
    return lines
  }

  // MARK: The quiz

  func header(_ quiz: MbtiQuiz, width: Int) -> [String] {
    let title = "MBTI quiz"
    let page = "Page \(quiz.page + 1) of \(quiz.pageCount)"
    let gap = max(1, width - title.count - page.count)
    let count = "\(quiz.answeredCount) of \(quiz.questions.count) answered"
    let barWidth = max(5, min(40, width - 2 - count.count))
    let filled = quiz.questions.isEmpty ? 0 : barWidth * quiz.answeredCount / quiz.questions.count
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
    return [style(title, .bold) + String(repeating: " ", count: gap) + page, "\(style(bar, .green))  \(count)"]
  }

  /// The header, a window of the page's questions that holds the focused one, and the footer.
  func quizLines(_ quiz: MbtiQuiz, width: Int, rows: Int) -> [String] {
    var top = header(quiz, width: width)
    let bottom = footer(quiz, width: width)
    var body: [String] = []
    var focusRange = 0..<0
    let numberWidth = String(quiz.indices(onPage: quiz.page).upperBound).count
    let indentWidth = 2 + numberWidth + 2
    let indent = String(repeating: " ", count: indentWidth)
    let mode = scaleMode(width: width - indentWidth)
    for index in quiz.indices(onPage: quiz.page) {
      let focused = index == quiz.focus
      let start = body.count
      let marker = focused ? "▶ " : "  "
      let number = String(index + 1)
      let prefix = marker + String(repeating: " ", count: numberWidth - number.count) + number + ". "
      let text = TextLayout.wrap(quiz.questions[index].question, width: width - indentWidth)
      for (row, part) in text.enumerated() {
        let line = (row == 0 ? prefix : indent) + part
        body.append(focused ? style(line, .bold) : line)
      }
      body += scale(quiz, index: index, focused: focused, mode: mode, width: width - indentWidth).map { indent + $0 }
      if focused { focusRange = start..<body.count }
      if quiz.highlighted == index { body.append(indent + style("↑ answer this one", .yellow)) }
      body.append("")
    }
    // Room for the questions: what the header and the footer leave (the header's blank line
    // goes first when rows are short).
    var room = rows - top.count - 1 - bottom.count
    if room < focusRange.count + 2 {
      room += 1
    } else {
      top.append("")
    }
    if body.count > room { body = window(body, focus: focusRange, room: room) }
    return top + body + bottom
  }

  /// The lines of `body` that fit `room` rows around the focused question, with "↑ more above"
  /// and "↓ more below" in place of the lines left out. The focused question's scale (its last
  /// lines) is shown even when its text is cut.
  func window(_ body: [String], focus: Range<Int>, room: Int) -> [String] {
    var marks = (above: false, below: false)
    var start = 0
    var end = body.count
    // Each mark takes a row, which can make the other one needed: at most three rounds.
    for _ in 0..<3 {
      // The marks take rows of their own, never one of the focused question's.
      let inner = max(1, min(room, focus.count), room - (marks.above ? 1 : 0) - (marks.below ? 1 : 0))
      let spare = max(0, inner - focus.count)
      start = max(0, focus.lowerBound - spare / 3)
      start = min(start, max(0, body.count - inner))
      start = max(start, focus.upperBound - inner)
      end = min(body.count, start + inner)
      let needed = (above: body[..<start].contains { !$0.isEmpty }, below: body[end...].contains { !$0.isEmpty })
      let more = (above: marks.above || needed.above, below: marks.below || needed.below)
      if more == marks { break }
      marks = more
    }
    let above = body[..<start].contains { !$0.isEmpty }
    let below = body[end...].contains { !$0.isEmpty }
    var lines = Array(body[start..<end])
    if above, below, lines.count + 1 == room {
      // One row left: both marks on it.
      lines.insert(style("  ↑ more above, ↓ more below", .dim), at: 0)
    } else {
      if above, lines.count < room { lines.insert(style("  ↑ more above", .dim), at: 0) }
      if below, lines.count < room { lines.append(style("  ↓ more below", .dim)) }
    }
    return lines
  }

  /// The navigation line and a message: the quit question, submitting, the submission's error,
  /// a status, or the keys.
  func footer(_ quiz: MbtiQuiz, width: Int) -> [String] {
    let back = quiz.page > 0 ? "[b] Back" : ""
    let next = quiz.isLastPage ? "[n] Submit" : "[n] Next"
    var lines = [back + String(repeating: " ", count: max(2, width - Self.width(of: back + next))) + next]
    let message: [String]
    if askingToQuit {
      message = TextLayout.wrap(
        "Quit? k keeps your answers for `deck mbti quiz --resume`, d discards them, Esc goes on.", width: width
      ).map { style($0, .yellow) }
    } else if quiz.isSubmitting {
      message = ["Submitting…"]
    } else if let error = quiz.submitError {
      message = Self.capped(
        TextLayout.wrap("Couldn’t submit: \(error) Your answers are kept; press n to retry.", width: width), 3, width
      ).map { style($0, .red) }
    } else if let status {
      message = TextLayout.wrap(status, width: width).map { style($0, .yellow) }
    } else {
      message = TextLayout.wrapItems(["1-5 answer", "↑↓ question", "←→ and Enter choose", "q quit"], width: width)
        .map { style($0, .dim) }
    }
    lines += Self.capped(message, 3, width)
    return lines
  }

  /// At most `count` lines, the last cut with "…" when more were left out.
  static func capped(_ lines: [String], _ count: Int, _ width: Int) -> [String] {
    guard lines.count > count else { return lines }
    var kept = Array(lines.prefix(count))
    kept[count - 1] = TextLayout.fit(kept[count - 1] + String(repeating: " ", count: width), width: width)
    return kept
  }

  enum ScaleMode: Equatable {
    /// Every label on the scale's line.
    case labels
    /// The numbers, with the label of the cursor's value (or the answer) on the same line.
    case numbersWithLabel
    /// The numbers; the label on a line of its own.
    case numbers
  }

  /// The widest scale line of each mode: the focused question's, with the cursor's brackets.
  static let labelledWidth =
    Likert.values.map { 4 + Likert.labels[$0 - 1].count }.reduce(0, +) + 2 * (Likert.values.count - 1) + 2
  static let numbersWidth = 3 * Likert.values.count + 2 * (Likert.values.count - 1) + 2
  static let longestLabel = Likert.labels.map(\.count).max() ?? 0

  func scaleMode(width: Int) -> ScaleMode {
    if width >= Self.labelledWidth { return .labels }
    if width >= Self.numbersWidth + 3 + Self.longestLabel { return .numbersWithLabel }
    return .numbers
  }

  /// The five values of a question in `width` columns; the answer marked ●, the cursor (on the
  /// focused question) in brackets. An answered question keeps its label at any width: beside
  /// the numbers, or beside a compact scale ("○1 ○2 ○3 ●4 ○5  Agree") when that does not fit.
  func scale(_ quiz: MbtiQuiz, index: Int, focused: Bool, mode: ScaleMode, width: Int) -> [String] {
    let chosen = quiz.answers[index]
    let items = Likert.values.map { value -> String in
      var item = (chosen == value ? "● " : "○ ") + "\(value)"
      if mode == .labels { item += " " + Likert.labels[value - 1] }
      if focused && cursor == value { item = style("[\(item)]", .cyan) }
      return item
    }
    let line = items.joined(separator: "  ")
    // The label beside the numbers: where the cursor is on the focused question, the answer
    // on the others.
    let labelled = focused ? Optional(cursor) : chosen
    guard mode != .labels, let value = labelled, let label = Likert.label(value) else { return [line] }
    let text = focused ? "\(value) \(label)" : label
    if mode == .numbersWithLabel { return [line + "   " + style(text, focused ? .cyan : .dim)] }
    if focused { return [line, style("→ " + text, .cyan)] }
    if Self.width(of: line) + 3 + label.count <= width { return [line + "   " + style(label, .dim)] }
    let compact = Likert.values.map { (chosen == $0 ? "●" : "○") + "\($0)" }.joined(separator: " ")
    return [compact + "  " + style(label, .dim)]
  }

  // MARK: The result

  func resultLines(_ saved: MbtiStore.SavedResult, revealed: Double, width: Int) -> [String] {
    var lines = ["", "Your type", "", style("  \(saved.profile)", .bold), ""]
    lines += MbtiResultView.axisLines(saved.mbtiProfile, width: max(5, min(30, width - 20)), filled: revealed).map {
      "  " + $0
    }
    lines += ["", revealed >= 1 ? style("Press any key.", .dim) : ""]
    return lines
  }
}
