import Foundation
import TestSupport
import Testing

/// What the quiz says on a real terminal (issue 45, item 9): `--plain` breaks its lines between
/// words at the terminal's width, and leaving the quiz is said plainly, not as an error, with
/// the documented exit 130.
@Suite("MBTI quiz wording", .endToEndTimeLimit)
struct MbtiQuizWordingEndToEndTests {
  /// The lines the terminal shows, as written (control sequences and carriage returns removed).
  func lines(_ terminal: PseudoTerminal) -> [String] {
    terminal.screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  @Test("--plain at 50 columns: no line is wider than the terminal, so none breaks inside a word")
  func plainFitsTheTerminal() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let quiz = try PseudoTerminal(deck: deck, ["mbti", "quiz", "--plain"], columns: 50, rows: 24)
    try quiz.expect("Question 1 of 24")
    try quiz.expect("Answer 1-5: ")
    quiz.send("x\r")
    try quiz.expect("Answer with a number")
    try quiz.expect("Answer 1-5: ")
    quiz.send("4\r")
    try quiz.expect("Question 2 of 24")
    try quiz.expect("Answer 1-5: ")
    quiz.send("q\r")
    try quiz.expect("k, d or Enter: ")
    quiz.send("k\r")
    #expect(try quiz.waitForExit() == 130)
    let shown = lines(quiz)
    let text = shown.joined(separator: "\n")
    for line in shown {
      #expect(line.count <= 49, "\"\(line)\" is wider than the terminal:\n\(text)")
    }
    #expect(text.contains("Quiz left; your answer is saved.\nContinue with: deck mbti quiz --resume"), "\(text)")
    #expect(!text.lowercased().contains("error"), "\(text)")
  }

  @Test("leaving the full-screen quiz is said plainly: kept, discarded, or before any answer")
  func leavingIsNotAnError() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    let cases: [(keys: String, choice: String, said: String)] = [
      ("44", "k", "Quiz left; your 2 answers are saved.\nContinue with: deck mbti quiz --resume"),
      ("4", "d", "Quiz left; your answers were discarded."),
      ("", "k", "Quiz left before any question was answered; nothing is saved."),
    ]
    for (keys, choice, said) in cases {
      let quiz = try PseudoTerminal(
        deck: deck, ["mbti", "quiz"], environment: ["DECK_REDUCE_MOTION": "1"], columns: 80, rows: 24)
      try quiz.expect("0 of 24 answered")
      if !keys.isEmpty {
        quiz.send(keys)
        try quiz.expect("\(keys.count) of 24 answered")
      }
      quiz.send("q")
      try quiz.expect("Quit?")
      quiz.send(choice)
      #expect(try quiz.waitForExit() == 130)
      let after = quiz.pending()
      #expect(after.contains(said), "\(after)")
      #expect(!after.lowercased().contains("error"), "\(after)")
    }
  }
}
