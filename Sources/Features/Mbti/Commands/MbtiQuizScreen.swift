import DeckCore
import DeckSupport
import FoundationEssentials
import MbtiRules

/// `deck mbti quiz` on a terminal (mbti-quiz.md, "MBTI quiz UI/UX"): a header with the page, a
/// progress bar and the answered count; six questions per page, each with the Likert scale;
/// Back and Next (Submit on the last page). Keys: 1-5 answer the focused question and move on;
/// ↑/↓ move between questions; ←/→ choose a value and Enter answers with it (Enter on an
/// answered page goes on); n or Tab is Next (Submit on the last page), b is Back; Ctrl-C, q or
/// Esc ask whether to keep the answers for --resume. Next with a gap rings the bell and jumps
/// to the first missing question. The result is revealed with a bar per axis.
///
/// The questions are loaded on the screen: when that fails, a card says so and offers r to
/// retry and q to cancel ("Fetch fail: show retry card"). The frame is `MbtiQuizLayout`'s, for
/// the terminal's size at each redraw (a resize redraws it).
final class MbtiQuizScreen: FullScreenApp {
  enum Event: Sendable {
    case loaded(Result<QuestionSet, DeckError>)
    case submitted(Result<MbtiStore.SavedResult, DeckError>)
    case frame
  }

  enum Outcome {
    case completed(MbtiStore.SavedResult)
    case kept
    case discarded
    /// Left before the quiz started: the load's error (nil: left while loading).
    case cancelled(DeckError?)
  }

  var layout: MbtiQuizLayout
  let flow: MbtiQuizFlow
  let reduceMotion: Bool
  /// Fetches the questions (again, on r).
  let load: @Sendable () async throws -> QuestionSet
  /// Makes the quiz from the questions (restores saved answers, sends onboarding_take_test).
  let start: (QuestionSet) -> MbtiQuiz
  private var loadError: DeckError?
  private var events: FullScreenEvents<Event>?

  init(
    flow: MbtiQuizFlow, output: Output, reduceMotion: Bool, load: @escaping @Sendable () async throws -> QuestionSet,
    start: @escaping (QuestionSet) -> MbtiQuiz
  ) {
    self.flow = flow
    self.reduceMotion = reduceMotion
    self.load = load
    self.start = start
    layout = MbtiQuizLayout(phase: .loading, style: output.style)
  }

  var quiz: MbtiQuiz? {
    get {
      if case .answering(let quiz) = layout.phase { return quiz }
      return nil
    }
    set {
      if let newValue { layout.phase = .answering(newValue) }
    }
  }

  func run() async throws -> Outcome {
    try await FullScreenLoop.run(self, purpose: "The full-screen quiz")
  }

  func begin(_ events: FullScreenEvents<Event>) {
    self.events = events
    startLoading()
  }

  func startLoading() {
    layout.phase = .loading
    let events = events
    let load = load
    Task {
      do {
        events?.post(.loaded(.success(try await load())))
      } catch {
        events?.post(.loaded(.failure(ErrorPresenter.deckError(for: error))))
      }
    }
  }

  func handle(event: Event) -> Outcome? {
    switch event {
    case .loaded:
      // Only the load the screen waits for counts (one quiz, one onboarding_take_test).
      guard case .loading = layout.phase else { return nil }
    default:
      break
    }
    switch event {
    case .loaded(.success(let set)):
      let quiz = start(set)
      layout.phase = .answering(quiz)
      layout.cursor = quiz.answers[quiz.focus] ?? 3
    case .loaded(.failure(let error)):
      loadError = error
      layout.phase = .loadFailed(message: error.message, hint: error.hint)
    case .submitted(.success(let saved)):
      guard var quiz else { return nil }
      quiz.submitSucceeded()
      self.quiz = quiz
      layout.status = nil
      layout.phase = .result(saved, revealed: reduceMotion ? 1 : 0)
      if !reduceMotion { scheduleFrame() }
    case .submitted(.failure(let error)):
      guard var quiz else { return nil }
      quiz.submitFailed(error.message)
      self.quiz = quiz
      layout.status = nil
    case .frame:
      guard case .result(let saved, let revealed) = layout.phase else { return nil }
      layout.phase = .result(saved, revealed: min(1, revealed + 0.1))
      if revealed + 0.1 < 1 { scheduleFrame() }
    }
    return nil
  }

  /// SIGINT asks, as Ctrl-C does (before the quiz starts, it leaves).
  func interrupted() -> Outcome? {
    guard quiz != nil else { return .cancelled(loadError) }
    layout.askingToQuit = true
    return nil
  }

  func inputEnded() -> Outcome { quiz == nil ? .cancelled(loadError) : .kept }
  func cancelled() -> Outcome { quiz == nil ? .cancelled(loadError) : .kept }

  // MARK: Keys

  func handle(_ key: Key) -> Outcome? {
    switch layout.phase {
    case .loading:
      if [Key.control("c"), .escape, .character("q"), .character("Q")].contains(key) { return .cancelled(nil) }
      return nil
    case .loadFailed:
      switch key {
      case .character("r"), .character("R"), .enter: startLoading()
      case .control("c"), .escape, .character("q"), .character("Q"): return .cancelled(loadError)
      default: break
      }
      return nil
    case .result(let saved, let revealed):
      // Any key leaves the result screen once it is fully shown.
      return revealed >= 1 ? .completed(saved) : nil
    case .answering:
      return answering(key)
    }
  }

  func answering(_ key: Key) -> Outcome? {
    guard var quiz else { return nil }
    defer { if case .answering = layout.phase { self.quiz = quiz } }
    if layout.askingToQuit {
      switch key {
      case .character("k"), .character("K"), .character("y"), .character("Y"): return .kept
      case .character("d"), .character("D"): return .discarded
      case .escape, .character("n"), .character("N"), .enter: layout.askingToQuit = false
      default: break
      }
      return nil
    }
    layout.status = nil
    // On a terminal too small to show the questions, only quitting works.
    if tooSmall {
      if [Key.control("c"), .escape, .character("q"), .character("Q")].contains(key) { layout.askingToQuit = true }
      return nil
    }
    switch key {
    case .control("c"), .escape, .character("q"), .character("Q"):
      layout.askingToQuit = true
    case .character(let character) where character.wholeNumberValue.map(Likert.values.contains) == true:
      answer(character.wholeNumberValue ?? 3, &quiz)
    case .up, .character("k"):
      quiz.moveFocus(by: -1)
      layout.cursor = quiz.answers[quiz.focus] ?? 3
    case .down, .character("j"):
      quiz.moveFocus(by: 1)
      layout.cursor = quiz.answers[quiz.focus] ?? 3
    case .left:
      layout.cursor = max(Likert.values.lowerBound, layout.cursor - 1)
    case .right:
      layout.cursor = min(Likert.values.upperBound, layout.cursor + 1)
    case .enter:
      if quiz.answers[quiz.focus] == layout.cursor && quiz.firstMissingOnPage == nil {
        advance(&quiz)
      } else {
        answer(layout.cursor, &quiz)
      }
    case .character("n"), .character("N"), .tab:
      advance(&quiz)
    case .character("b"), .character("B"):
      if quiz.back() { layout.cursor = quiz.answers[quiz.focus] ?? 3 }
    case .character("s"), .character("S"):
      if quiz.isLastPage { submit(&quiz) }
    default:
      break
    }
    return nil
  }

  /// The last frame was the "make the terminal bigger" one.
  private var tooSmall = false

  func answer(_ value: Int, _ quiz: inout MbtiQuiz) {
    guard quiz.answerFocused(value) else { return }
    flow.save(quiz)
    layout.cursor = quiz.answers[quiz.focus] ?? 3
  }

  /// Next, or Submit on the last page.
  func advance(_ quiz: inout MbtiQuiz) {
    switch quiz.next() {
    case .advanced(let page):
      flow.pageShown(page)
      layout.cursor = quiz.answers[quiz.focus] ?? 3
    case .missing(let index):
      bell()
      layout.status = "Question \(index + 1) is not answered yet."
      layout.cursor = 3
    case .lastPage:
      submit(&quiz)
    }
  }

  func submit(_ quiz: inout MbtiQuiz) {
    switch quiz.submit() {
    case .inFlight:
      layout.status = "Already submitting…"
    case .missing(let index):
      bell()
      layout.status = "Question \(index + 1) is not answered yet."
      layout.cursor = 3
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

  func scheduleFrame() {
    let events = events
    Task {
      try? await Task.sleep(for: .milliseconds(40))
      events?.post(.frame)
    }
  }

  // MARK: Drawing

  func frame(columns: Int, rows: Int) -> [String] {
    tooSmall = columns < MbtiQuizLayout.minimum.columns || rows < MbtiQuizLayout.minimum.rows
    return layout.frame(columns: columns, rows: rows)
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
