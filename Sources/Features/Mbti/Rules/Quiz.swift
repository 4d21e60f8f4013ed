/// The quiz's view model (mbti-quiz.md, "ViewModel behavior"): the questions in server order,
/// answers by question, pages of six, per-page and global validation, and the submit payload
/// keyed by the exact question texts. No I/O: the full-screen quiz, the plain prompt mode and
/// the tests drive it the same way.
public struct MbtiQuiz: Sendable, Equatable {
  public static let perPage = 6

  public let questions: [MbtiQuestion]
  /// The answer (1–5) of each question, by index; nil while unanswered.
  public private(set) var answers: [Int?]
  /// The page shown, from 0.
  public private(set) var page = 0
  /// The question that keys 1–5 answer, by index (always on the current page).
  public private(set) var focus = 0
  /// The missing question Next or Submit stopped at, until it is answered.
  public private(set) var highlighted: Int?
  /// A submission is in flight: Submit is refused until it ends.
  public private(set) var isSubmitting = false
  /// Why the last submission failed (answers are kept, Submit retries).
  public private(set) var submitError: String?

  public init(_ set: QuestionSet) {
    questions = set.questions
    answers = Array(repeating: nil, count: set.count)
  }

  public var pageCount: Int { (questions.count + Self.perPage - 1) / Self.perPage }
  public var isLastPage: Bool { page == pageCount - 1 }
  public var answeredCount: Int { answers.count { $0 != nil } }
  public var isComplete: Bool { answeredCount == questions.count }

  /// The indices of the questions on `page`.
  public func indices(onPage page: Int) -> Range<Int> {
    let start = min(questions.count, max(0, page) * Self.perPage)
    return start..<min(questions.count, start + Self.perPage)
  }

  public func page(of index: Int) -> Int { index / Self.perPage }

  // MARK: Answering and moving

  /// Answers the focused question, then focuses the next question of the page.
  public mutating func answerFocused(_ value: Int) -> Bool { answer(focus, value) }

  /// Answers a question of the current page with 1–5; false (and nothing changes) otherwise.
  @discardableResult
  public mutating func answer(_ index: Int, _ value: Int) -> Bool {
    guard Likert.values.contains(value), indices(onPage: page).contains(index) else { return false }
    answers[index] = value
    if highlighted == index { highlighted = nil }
    if index + 1 < indices(onPage: page).upperBound { focus = index + 1 } else { focus = index }
    return true
  }

  /// Moves the focus up or down within the page.
  public mutating func moveFocus(by offset: Int) {
    let range = indices(onPage: page)
    focus = min(max(focus + offset, range.lowerBound), range.upperBound - 1)
  }

  /// The first unanswered question of the current page.
  public var firstMissingOnPage: Int? { indices(onPage: page).first { answers[$0] == nil } }

  /// The first unanswered question of the quiz.
  public var firstMissing: Int? { answers.indices.first { answers[$0] == nil } }

  public enum Advance: Equatable, Sendable {
    /// The next page is shown.
    case advanced(toPage: Int)
    /// The page has a gap: the focus jumped to it and it is highlighted (ring the bell).
    case missing(index: Int)
    /// On the last page: Next is Submit.
    case lastPage
  }

  /// Next: refused with the first gap of the page focused and highlighted; else the next page.
  public mutating func next() -> Advance {
    if let missing = firstMissingOnPage {
      focus = missing
      highlighted = missing
      return .missing(index: missing)
    }
    guard !isLastPage else { return .lastPage }
    show(page: page + 1)
    return .advanced(toPage: page)
  }

  /// Back: the previous page, answers kept. False on the first page.
  @discardableResult
  public mutating func back() -> Bool {
    guard page > 0 else { return false }
    show(page: page - 1)
    return true
  }

  private mutating func show(page newPage: Int) {
    page = newPage
    focus = indices(onPage: newPage).lowerBound
    highlighted = nil
  }

  // MARK: Submitting

  public enum Submission: Equatable, Sendable {
    /// Send this payload: `{questionText: value}` with the exact texts from the server.
    case send([String: Int])
    /// A question is unanswered: its page is shown, it is focused and highlighted.
    case missing(index: Int)
    /// A submission is already in flight; nothing is sent twice.
    case inFlight
  }

  /// Submit: the global first-unanswered check, then the payload (and the quiz is submitting).
  public mutating func submit() -> Submission {
    guard !isSubmitting else { return .inFlight }
    if let missing = firstMissing {
      show(page: page(of: missing))
      focus = missing
      highlighted = missing
      return .missing(index: missing)
    }
    isSubmitting = true
    submitError = nil
    return .send(payload)
  }

  /// The submission failed: the answers stay, and Submit can be tried again.
  public mutating func submitFailed(_ message: String) {
    isSubmitting = false
    submitError = message
  }

  public mutating func submitSucceeded() {
    isSubmitting = false
    submitError = nil
  }

  /// The answers so far, keyed by the exact question texts.
  public var payload: [String: Int] {
    var result: [String: Int] = [:]
    for (index, answer) in answers.enumerated() {
      if let answer { result[questions[index].question] = answer }
    }
    return result
  }

  // MARK: Resuming

  /// Takes back saved answers (by question text; unknown texts and values outside 1–5 are
  /// ignored) and shows the first page with a gap, or the last page when none is left.
  public mutating func restore(_ saved: [String: Int]) {
    for (index, question) in questions.enumerated() {
      if let value = saved[question.question], Likert.values.contains(value) { answers[index] = value }
    }
    show(page: firstMissing.map(page(of:)) ?? pageCount - 1)
    if let missing = firstMissingOnPage { focus = missing }
  }
}
