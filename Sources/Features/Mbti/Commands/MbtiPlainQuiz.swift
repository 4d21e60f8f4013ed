import DeckCore
import DeckSupport
import MbtiRules

/// `deck mbti quiz --plain`: the same quiz as one line prompt per question, for screen readers,
/// dumb terminals and serial lines. The same view model, so the same pages of six and the same
/// validation: the page moves on when it is complete, and a gap is named and asked again.
/// Answers: 1-5; Enter skips; b goes back a page, n to the next, s submits, q quits.
struct MbtiPlainQuiz {
  var quiz: MbtiQuiz
  let flow: MbtiQuizFlow
  let prompt: Prompt
  let output: Output

  mutating func run() async throws -> MbtiQuizScreen.Outcome {
    showPage()
    while true {
      try Task.checkCancellation()
      let index = quiz.focus
      let question = quiz.questions[index]
      output.line("")
      say("Question \(index + 1) of \(quiz.questions.count): \(question.question)")
      if let answer = quiz.answers[index], let label = Likert.label(answer) {
        say("(answered \(answer), \(label))")
      }
      say(Self.scale)
      guard let reply = await prompt.ask("Answer 1-5: ") else {
        if let outcome = await quit() { return outcome }
        continue
      }
      switch reply.trimming(.whitespaces).lowercased() {
      case let value where Int(value).map(Likert.values.contains) == true:
        let before = quiz.page
        _ = quiz.answerFocused(Int(value) ?? 3)
        flow.save(quiz)
        // The last question of the page answered (or the page full): move on.
        if quiz.focus == index || quiz.firstMissingOnPage == nil, quiz.page == before {
          if let outcome = try await advance() { return outcome }
        }
      case "":
        if quiz.focus + 1 < quiz.indices(onPage: quiz.page).upperBound {
          quiz.moveFocus(by: 1)
        } else if let outcome = try await advance() {
          return outcome
        }
      case "b", "back":
        if quiz.back() { showPage() } else { output.info("This is the first page.") }
      case "n", "next":
        if let outcome = try await advance() { return outcome }
      case "s", "submit":
        if let outcome = try await submit() { return outcome }
      case "q", "quit":
        if let outcome = await quit() { return outcome }
      default:
        say("Answer with a number from 1 to 5, or b (back), n (next), s (submit), q (quit).", on: .stderr)
      }
    }
  }

  /// The scale and the keys, said before each short prompt.
  static let scale =
    "1 Strongly Disagree, 2 Disagree, 3 Neutral, 4 Agree, 5 Strongly Agree; Enter skips, b back, n next, s submit, q quit."

  /// `text` on stdout in lines that fit the terminal, broken between words: the terminal
  /// would break a longer line inside a word, and readline a long prompt the same way, so
  /// prompts stay short and what they ask is said first.
  func say(_ text: String, on stream: Stream = .stdout) {
    for line in TextLayout.wrap(text, width: max(20, RawTerminal.currentSize.columns - 1)) {
      if stream == .stdout { output.line(line) } else { output.info(line) }
    }
  }

  enum Stream { case stdout, stderr }

  func showPage() {
    output.line("")
    output.line("Page \(quiz.page + 1) of \(quiz.pageCount), \(quiz.answeredCount) of \(quiz.questions.count) answered")
  }

  /// Next, or Submit on the last page.
  mutating func advance() async throws -> MbtiQuizScreen.Outcome? {
    switch quiz.next() {
    case .advanced(let page):
      flow.pageShown(page)
      showPage()
    case .missing(let index):
      output.writeOut("\u{07}")
      output.info("Question \(index + 1) is not answered yet.")
    case .lastPage:
      return try await submit()
    }
    return nil
  }

  /// Submit with the global check; a failure keeps the answers and asks to retry.
  mutating func submit() async throws -> MbtiQuizScreen.Outcome? {
    while true {
      switch quiz.submit() {
      case .missing(let index):
        output.writeOut("\u{07}")
        output.info("Question \(index + 1) is not answered yet.")
        showPage()
        return nil
      case .inFlight:
        return nil
      case .send(let payload):
        output.info("Submitting…")
        do {
          let saved = try await flow.submit(payload)
          quiz.submitSucceeded()
          return .completed(saved)
        } catch {
          let problem = ErrorPresenter.deckError(for: error)
          quiz.submitFailed(problem.message)
          output.error("Couldn’t submit: \(problem.message) Your answers are kept.")
          guard await prompt.confirm("Retry now?") else { return nil }
        }
      }
    }
  }

  /// Ctrl-C, Ctrl-D or q: keep the answers for --resume, or discard them.
  func quit() async -> MbtiQuizScreen.Outcome? {
    say("Quit the quiz? k keeps your answers for --resume, d discards them, Enter goes on.")
    guard let reply = await prompt.ask("k, d or Enter: ") else { return .kept }
    switch reply.trimming(.whitespaces).lowercased() {
    case "k", "keep", "y", "yes": return .kept
    case "d", "discard": return .discarded
    default: return nil
    }
  }
}
