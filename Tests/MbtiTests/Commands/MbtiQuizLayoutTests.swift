import Foundation
import MbtiRules
import Testing

@testable import MbtiModule
@testable import MbtiServer

/// The full-screen quiz's frame at the sizes of issue 26 (120×40, 80×24, 50×20, 40×24, 30×10):
/// every line fits the terminal, the focused question's scale shows the value the cursor is
/// on, and below the minimum size the frame asks for a bigger terminal.
@Suite("MBTI quiz layout")
struct MbtiQuizLayoutTests {
  static let sizes = [(120, 40), (80, 24), (50, 20), (40, 24), (40, 12)]

  /// The sandbox's 24 questions, as the service sends them.
  static func quiz() throws -> MbtiQuiz {
    MbtiQuiz(
      try QuestionSet(MbtiScoring.questions.map { MbtiQuestion(question: $0.text, options: MbtiScoring.options) }))
  }

  /// The states a page goes through: fresh, some answered, the focus on the page's last
  /// question, a gap highlighted with its status, the quit question, a failed submission.
  static func states() throws -> [(String, MbtiQuizLayout)] {
    var states: [(String, MbtiQuizLayout)] = []
    let fresh = try quiz()
    states.append(("fresh", MbtiQuizLayout(phase: .answering(fresh))))
    var answered = fresh
    _ = answered.answerFocused(4)
    _ = answered.answerFocused(1)
    states.append(("answered, cursor 5", MbtiQuizLayout(phase: .answering(answered), cursor: 5)))
    states.append(("answered, cursor 1", MbtiQuizLayout(phase: .answering(answered), cursor: 1)))
    var last = answered
    for _ in 0..<3 { _ = last.answerFocused(2) }
    states.append(("focus on the last question", MbtiQuizLayout(phase: .answering(last), cursor: 2)))
    var gap = fresh
    _ = gap.answerFocused(3)
    _ = gap.next()
    states.append(
      ("a gap", MbtiQuizLayout(phase: .answering(gap), status: "Question 2 is not answered yet.")))
    states.append(("quitting", MbtiQuizLayout(phase: .answering(answered), askingToQuit: true)))
    var failed = fresh
    for _ in 0..<4 {
      for _ in 0..<6 { _ = failed.answerFocused(3) }
      _ = failed.next()
    }
    _ = failed.submit()
    failed.submitFailed(
      "The nudge service failed: HTTP 503 from nudge, with a long explanation that goes on and on about the outage.")
    states.append(("submit failed", MbtiQuizLayout(phase: .answering(failed))))
    return states
  }

  func check(_ frame: [String], columns: Int, rows: Int, _ comment: String) {
    #expect(frame.count == rows, "\(comment)")
    for line in frame {
      #expect(MbtiQuizLayout.width(of: line) <= columns - 1, "\(comment): \"\(line)\" is wider than \(columns - 1)")
    }
  }

  @Test("every line fits, with the header, one focus marker, the navigation and the cursor's value", arguments: sizes)
  func framesFit(size: (Int, Int)) throws {
    let (columns, rows) = size
    for (name, layout) in try Self.states() {
      let frame = layout.frame(columns: columns, rows: rows)
      let comment = "\(columns)×\(rows), \(name):\n" + frame.joined(separator: "\n")
      check(frame, columns: columns, rows: rows, comment)
      guard case .answering(let quiz) = layout.phase else { continue }
      #expect(frame[0].hasPrefix("MBTI quiz") && frame[0].hasSuffix("Page \(quiz.page + 1) of 4"), "\(comment)")
      #expect(frame[1].contains("\(quiz.answeredCount) of 24 answered"), "\(comment)")
      #expect(frame.count { $0.contains("▶ ") } == 1, "\(comment)")
      #expect(frame.count { $0.contains("of 24 answered") } == 1, "\(comment)")
      #expect(frame.contains { $0.contains(quiz.isLastPage ? "[n] Submit" : "[n] Next") }, "\(comment)")
      // The cursor's value, in whole brackets, on the focused question's scale.
      let mark = quiz.answers[quiz.focus] == layout.cursor ? "●" : "○"
      let bracket = try Regex("\\[\(mark) \(layout.cursor)( [A-Za-z ]+)?\\]")
      #expect(frame.contains { $0.contains(bracket) }, "\(comment)")
      let label = try #require(Likert.label(layout.cursor))
      #expect(frame.contains { $0.contains(label) }, "the cursor's label is shown: \(comment)")
      if layout.askingToQuit {
        #expect(frame.joined(separator: " ").contains("d discards them, Esc goes on."), "\(comment)")
      }
      if layout.status != nil {
        #expect(frame.joined(separator: " ").contains("Question 2 is not answered yet."), "\(comment)")
        #expect(frame.contains { $0.contains("↑ answer this one") }, "\(comment)")
      }
    }
  }

  @Test("at 80 columns the scale shows the numbers and the cursor's label, never a cut bracket")
  func eightyColumns() throws {
    var quiz = try Self.quiz()
    _ = quiz.answerFocused(4)
    quiz.moveFocus(by: -1)
    let frame = MbtiQuizLayout(phase: .answering(quiz), cursor: 2).frame(columns: 80, rows: 24)
    let focused = try #require(frame.firstIndex { $0.hasPrefix("▶ ") })
    let scale = try #require(frame[focused...].first { $0.contains("[○ 2]") })
    #expect(scale.contains("○ 1  [○ 2]  ○ 3  ● 4  ○ 5   2 Disagree"), "\(frame.joined(separator: "\n"))")
    // The answered question below it shows its answer's label.
    #expect(frame.contains { $0.contains("○ 1  ○ 2  ○ 3  ○ 4  ○ 5") })
    // At 120 columns every label is on the line.
    let wide = MbtiQuizLayout(phase: .answering(quiz), cursor: 2).frame(columns: 120, rows: 40)
    #expect(
      wide.contains { $0.contains("○ 1 Strongly Disagree  [○ 2 Disagree]  ○ 3 Neutral  ● 4 Agree  ○ 5 Strongly Agree") }
    )
  }

  @Test(
    "below 40×12 the frame asks for a bigger terminal, and fits", arguments: [(30, 10), (39, 24), (80, 11), (12, 3)])
  func tooSmall(size: (Int, Int)) throws {
    let (columns, rows) = size
    for (name, layout) in try Self.states() {
      let frame = layout.frame(columns: columns, rows: rows)
      let comment = "\(columns)×\(rows), \(name):\n" + frame.joined(separator: "\n")
      check(frame, columns: columns, rows: rows, comment)
      #expect(frame.joined(separator: " ").contains("Make the terminal"), "\(comment)")
      #expect(!frame.contains { $0.contains("▶") }, "no broken frame: \(comment)")
    }
    if columns >= 30 {
      let frame = try Self.states()[0].1.frame(columns: columns, rows: rows)
      #expect(frame.joined(separator: " ").contains("at least 40×12 for the quiz (it is \(columns)×\(rows))."))
    }
  }

  @Test("the load-failure card, loading and the result fit every size", arguments: sizes + [(30, 10)])
  func otherPhases(size: (Int, Int)) throws {
    let (columns, rows) = size
    let saved = MbtiStore.SavedResult(
      userID: "u", profile: "INTJ", scores: ["E": 4, "I": 20, "S": 8, "N": 16, "T": 18, "F": 6, "J": 13, "P": 11],
      takenAt: Date(), environment: "local")
    let phases: [MbtiQuizLayout.Phase] = [
      .loading,
      .loadFailed(
        message: "Couldn’t load questions: Cannot reach 127.0.0.1:9 (connection refused).",
        hint: "Is the sandbox running? Start it with: deck sandbox serve --port 9"),
      .result(saved, revealed: 1),
    ]
    for phase in phases {
      let frame = MbtiQuizLayout(phase: phase).frame(columns: columns, rows: rows)
      let comment = "\(columns)×\(rows):\n" + frame.joined(separator: "\n")
      check(frame, columns: columns, rows: rows, comment)
      guard columns >= 40 else { continue }
      switch phase {
      case .loadFailed:
        #expect(frame.contains("Couldn’t load questions"), "\(comment)")
        #expect(frame.joined(separator: " ").contains("Cannot reach 127.0.0.1:9"), "\(comment)")
        #expect(frame.contains { $0.contains("[r] Retry") && $0.contains("[q] Cancel") }, "\(comment)")
      case .result:
        #expect(frame.contains("  INTJ"), "\(comment)")
        #expect(frame.contains("Press any key."), "\(comment)")
      case .loading:
        #expect(frame.contains("Loading questions…"), "\(comment)")
      case .answering: break
      }
    }
  }

  @Test("wide characters in a question count two columns")
  func wideCharacters() throws {
    let texts = (1...6).map { "問題\($0): 週末の計画はたいてい途中で変わりますか、それとも最初に決めたとおりに進めますか?" }
    let quiz = MbtiQuiz(try QuestionSet(texts.map { MbtiQuestion(question: $0, options: []) }))
    for (columns, rows) in Self.sizes {
      let frame = MbtiQuizLayout(phase: .answering(quiz)).frame(columns: columns, rows: rows)
      check(frame, columns: columns, rows: rows, "\(columns)×\(rows):\n" + frame.joined(separator: "\n"))
      #expect(frame.contains { $0.contains("[○ 3") })
    }
  }

  @Test(
    "questions left out of the window are marked above and below (issue 45)",
    arguments: [(80, 24), (50, 20), (40, 24), (40, 12)])
  func windowMarks(size: (Int, Int)) throws {
    let (columns, rows) = size
    for (name, layout) in try Self.states() {
      guard case .answering(let quiz) = layout.phase else { continue }
      let frame = layout.frame(columns: columns, rows: rows)
      let comment = "\(columns)×\(rows), \(name):\n" + frame.joined(separator: "\n")
      let page = quiz.indices(onPage: quiz.page)
      let width = String(page.upperBound).count
      func numbered(_ index: Int) -> Bool {
        let number = String(index + 1)
        let label = String(repeating: " ", count: width - number.count) + number + ". "
        return frame.contains { $0.hasPrefix("▶ " + label) || $0.hasPrefix("  " + label) }
      }
      if !numbered(page.lowerBound) { #expect(frame.contains { $0.contains("↑ more above") }, "\(comment)") }
      if !numbered(page.upperBound - 1) { #expect(frame.contains { $0.contains("↓ more below") }, "\(comment)") }
      if numbered(page.lowerBound) { #expect(!frame.contains { $0.contains("↑ more above") }, "\(comment)") }
    }
    // The first question, focused on a fresh page, is shown whole, with the mark below it (at
    // 80×24 the whole page fits).
    guard columns < 80 else { return }
    let fresh = try Self.states()[0].1.frame(columns: columns, rows: rows)
    let comment = "\(columns)×\(rows):\n" + fresh.joined(separator: "\n")
    #expect(fresh.contains { $0.hasPrefix("▶ 1. ") }, "\(comment)")
    #expect(fresh.contains { $0.contains("↓ more below") }, "\(comment)")
  }

  @Test(
    "below 80 columns an answered question keeps its label (issue 45)", arguments: [(80, 24), (50, 20), (40, 24)])
  func answeredLabels(size: (Int, Int)) throws {
    let (columns, rows) = size
    // Questions 1 to 3 answered 1, 4 and 1; the focus back on question 1, so 2 and 3 show below it.
    var quiz = try Self.quiz()
    for value in [1, 4, 1] { _ = quiz.answerFocused(value) }
    quiz.moveFocus(by: -3)
    let frame = MbtiQuizLayout(phase: .answering(quiz), cursor: 1).frame(columns: columns, rows: rows)
    let comment = "\(columns)×\(rows):\n" + frame.joined(separator: "\n")
    let unfocused = frame.filter { !$0.contains("[") && !$0.contains("→") }
    #expect(unfocused.contains { ($0.contains("● 4") || $0.contains("●4")) && $0.contains("  Agree") }, "\(comment)")
    #expect(
      unfocused.contains { ($0.contains("● 1") || $0.contains("●1")) && $0.contains("  Strongly Disagree") },
      "\(comment)")
  }
}
