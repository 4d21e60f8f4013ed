import DeckCore
import DeckSupport
import Foundation
import MbtiRules

/// `deck mbti quiz` on a terminal (mbti-quiz.md, "MBTI quiz UI/UX"): a header with the page, a
/// progress bar and the answered count; six questions per page, each with the Likert scale;
/// Back and Next (Submit on the last page). Keys: 1-5 answer the focused question and move on;
/// ↑/↓ move between questions; ←/→ choose a value and Enter answers with it (Enter on an
/// answered page goes on); n or Tab is Next (Submit on the last page), b is Back; Ctrl-C, q or
/// Esc ask whether to keep the answers for --resume. Next with a gap rings the bell and jumps
/// to the first missing question. The result is revealed with a bar per axis.
final class MbtiQuizScreen: FullScreenApp {
  enum Event: Sendable {
    case submitted(Result<MbtiStore.SavedResult, DeckError>)
    case frame
  }

  enum Outcome {
    case completed(MbtiStore.SavedResult)
    case kept
    case discarded
  }

  var quiz: MbtiQuiz
  let flow: MbtiQuizFlow
  let output: Output
  let reduceMotion: Bool
  /// The value ←/→ point at for the focused question.
  var cursor = 3
  var status: String?
  var askingToQuit = false
  var result: MbtiStore.SavedResult?
  var revealed = 1.0
  private var events: FullScreenEvents<Event>?

  init(quiz: MbtiQuiz, flow: MbtiQuizFlow, output: Output, reduceMotion: Bool) {
    self.quiz = quiz
    self.flow = flow
    self.output = output
    self.reduceMotion = reduceMotion
    cursor = quiz.answers[quiz.focus] ?? 3
  }

  func run() async throws -> Outcome {
    try await FullScreenLoop.run(self, purpose: "The full-screen quiz")
  }

  func begin(_ events: FullScreenEvents<Event>) {
    self.events = events
  }

  func handle(event: Event) -> Outcome? {
    switch event {
    case .submitted(.success(let saved)):
      quiz.submitSucceeded()
      result = saved
      status = nil
      startReveal()
    case .submitted(.failure(let error)):
      quiz.submitFailed(error.message)
      status = nil
    case .frame:
      revealed = min(1, revealed + 0.1)
      if revealed < 1 { scheduleFrame() }
    }
    return nil
  }

  /// SIGINT asks, as Ctrl-C does.
  func interrupted() -> Outcome? {
    askingToQuit = true
    return nil
  }

  func inputEnded() -> Outcome { .kept }
  func cancelled() -> Outcome { .kept }

  // MARK: Keys

  func handle(_ key: Key) -> Outcome? {
    if let result {
      // Any key leaves the result screen once it is fully shown.
      return revealed >= 1 ? .completed(result) : nil
    }
    if askingToQuit {
      switch key {
      case .character("k"), .character("K"), .character("y"), .character("Y"): return .kept
      case .character("d"), .character("D"): return .discarded
      case .escape, .character("n"), .character("N"), .enter: askingToQuit = false
      default: break
      }
      return nil
    }
    status = nil
    switch key {
    case .control("c"), .escape, .character("q"), .character("Q"):
      askingToQuit = true
    case .character(let character) where character.wholeNumberValue.map(Likert.values.contains) == true:
      answer(character.wholeNumberValue ?? 3)
    case .up, .character("k"):
      quiz.moveFocus(by: -1)
      cursor = quiz.answers[quiz.focus] ?? 3
    case .down, .character("j"):
      quiz.moveFocus(by: 1)
      cursor = quiz.answers[quiz.focus] ?? 3
    case .left:
      cursor = max(Likert.values.lowerBound, cursor - 1)
    case .right:
      cursor = min(Likert.values.upperBound, cursor + 1)
    case .enter:
      if quiz.answers[quiz.focus] == cursor && quiz.firstMissingOnPage == nil { advance() } else { answer(cursor) }
    case .character("n"), .character("N"), .tab:
      advance()
    case .character("b"), .character("B"):
      if quiz.back() { cursor = quiz.answers[quiz.focus] ?? 3 }
    case .character("s"), .character("S"):
      if quiz.isLastPage { submit() }
    default:
      break
    }
    return nil
  }

  func answer(_ value: Int) {
    guard quiz.answerFocused(value) else { return }
    flow.save(quiz)
    cursor = quiz.answers[quiz.focus] ?? 3
  }

  /// Next, or Submit on the last page.
  func advance() {
    switch quiz.next() {
    case .advanced(let page):
      flow.pageShown(page)
      cursor = quiz.answers[quiz.focus] ?? 3
    case .missing(let index):
      bell()
      status = "Question \(index + 1) is not answered yet."
      cursor = 3
    case .lastPage:
      submit()
    }
  }

  func submit() {
    switch quiz.submit() {
    case .inFlight:
      status = "Already submitting…"
    case .missing(let index):
      bell()
      status = "Question \(index + 1) is not answered yet."
      cursor = 3
    case .send(let payload):
      let events = events
      let flow = flow
      Task {
        do {
          events?.post(.submitted(.success(try await flow.submit(payload))))
        } catch {
          events?.post(.submitted(.failure(ErrorPresenter.deckError(for: error))))
        }
      }
    }
  }

  func bell() { RawTerminal.output("\u{07}") }

  func startReveal() {
    revealed = reduceMotion ? 1 : 0
    if revealed < 1 { scheduleFrame() }
  }

  func scheduleFrame() {
    let events = events
    Task {
      try? await Task.sleep(for: .milliseconds(40))
      events?.post(.frame)
    }
  }

  // MARK: Drawing

  /// Exactly `rows` lines, none wider than the terminal.
  func frame(columns: Int, rows: Int) -> [String] {
    let width = max(20, columns - 1)
    var lines: [String]
    if let result {
      lines = resultLines(result, width: width)
    } else {
      let (body, focusLine) = quizLines(width: width)
      lines = body
      // Too tall: keep the header and the footer, and a window of questions around the focus.
      if lines.count > rows, rows > 6 {
        let headerCount = 3
        let footer = Array(lines.suffix(2))
        let room = rows - headerCount - footer.count
        let start = min(max(headerCount, focusLine - room / 3), lines.count - footer.count - room)
        lines = Array(lines.prefix(headerCount)) + Array(lines[start..<(start + room)]) + footer
      }
    }
    if lines.count > rows { lines = Array(lines.prefix(rows)) }
    while lines.count < rows { lines.append("") }
    return lines
  }

  func header(width: Int) -> [String] {
    let title = output.style("MBTI quiz", .bold)
    let page = "Page \(quiz.page + 1) of \(quiz.pageCount)"
    let gap = max(1, width - 9 - page.count)
    let barWidth = max(10, min(40, width - 24))
    let filled = quiz.questions.isEmpty ? 0 : barWidth * quiz.answeredCount / quiz.questions.count
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
    return [
      title + String(repeating: " ", count: gap) + page,
      "\(output.style(bar, .green))  \(quiz.answeredCount) of \(quiz.questions.count) answered", "",
    ]
  }

  /// The page's lines, and the line of the focused question.
  func quizLines(width: Int) -> (lines: [String], focusLine: Int) {
    var lines = header(width: width)
    var focusLine = 0
    for index in quiz.indices(onPage: quiz.page) {
      let focused = index == quiz.focus
      if focused { focusLine = lines.count }
      let marker = focused ? "▶ " : "  "
      let number = "\(index + 1). "
      let text = TextLayout.wrap(quiz.questions[index].question, width: max(10, width - 2 - number.count))
      for (row, part) in text.enumerated() {
        var line = (row == 0 ? marker + number : String(repeating: " ", count: 2 + number.count)) + part
        if focused { line = output.style(line, .bold) }
        lines.append(line)
      }
      lines.append(String(repeating: " ", count: 2 + number.count) + scale(for: index, focused: focused, width: width))
      if quiz.highlighted == index {
        lines.append(String(repeating: " ", count: 2 + number.count) + output.style("↑ answer this one", .yellow))
      }
      lines.append("")
    }
    let back = quiz.page > 0 ? "[b] Back" : ""
    let next = quiz.isLastPage ? "[n] Submit" : "[n] Next"
    lines.append(back + String(repeating: " ", count: max(2, width - back.count - next.count)) + next)
    if askingToQuit {
      lines.append(
        output.style("Quit? k keeps your answers for `deck mbti quiz --resume`, d discards them, Esc goes on.", .yellow)
      )
    } else if quiz.isSubmitting {
      lines.append("Submitting…")
    } else if let error = quiz.submitError {
      lines += TextLayout.wrap("Couldn’t submit: \(error) Your answers are kept; press n to retry.", width: width).map {
        output.style($0, .red)
      }
    } else if let status {
      lines.append(output.style(status, .yellow))
    } else {
      lines.append(output.style("1-5 answer · ↑↓ question · ←→ and Enter choose · q quit", .dim))
    }
    return (lines, focusLine)
  }

  /// The five values; the chosen one marked ●, the cursor (on the focused question) in brackets.
  func scale(for index: Int, focused: Bool, width: Int) -> String {
    let chosen = quiz.answers[index]
    let items = Likert.values.map { value -> String in
      let label = "\(value) \(Likert.labels[value - 1])"
      var item = (chosen == value ? "● " : "○ ") + label
      if focused && cursor == value { item = output.colorEnabled ? output.style("[\(item)]", .cyan) : "[\(item)]" }
      return item
    }
    let joined = items.joined(separator: "  ")
    return TextLayout.visibleWidth(joined) <= width - 6
      ? joined : items.map { TextLayout.plain($0).prefix(3) }.joined(separator: " ")
  }

  func resultLines(_ saved: MbtiStore.SavedResult, width: Int) -> [String] {
    var lines = ["", "Your type", "", output.style("  \(saved.profile)", .bold), ""]
    lines += MbtiResultView.axisLines(saved.mbtiProfile, width: max(10, min(30, width - 20)), filled: revealed).map {
      "  " + $0
    }
    lines += ["", revealed >= 1 ? output.style("Press any key.", .dim) : ""]
    return lines
  }
}

/// What the quiz screens share around the view model: saving answers as they are given,
/// the page-advance events, and the one submission path.
struct MbtiQuizFlow: Sendable {
  let service: MbtiService
  let store: MbtiStore
  let events: MbtiEvents
  let userID: String

  /// Saves the answers so far for `quiz --resume` (a failure to save never stops the quiz).
  func save(_ quiz: MbtiQuiz) {
    try? store.update { $0.progress = quiz.payload }
  }

  func pageShown(_ page: Int) {
    events.send("mbti_page_advance", ["page": String(page + 1)])
  }

  func submit(_ payload: [String: Int]) async throws -> MbtiStore.SavedResult {
    events.send("mbti_submitted")
    let saved = try await MbtiResultView.submit(payload, userID: userID, service: service, store: store)
    events.send("mbti_completed", ["type": saved.profile])
    return saved
  }

  func discard() {
    try? store.update { $0.progress = nil }
  }
}
