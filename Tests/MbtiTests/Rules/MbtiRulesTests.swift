import Foundation
import MbtiRules
import Testing

/// 24 questions, as the service sends them (the spec's shape: `options` as served).
func questions(_ count: Int = 24) -> [MbtiQuestion] {
  (1...count).map { MbtiQuestion(question: "Question number \($0)?", options: ["Agree", "Disagree"]) }
}

func makeQuiz(_ count: Int = 24) throws -> MbtiQuiz { MbtiQuiz(try QuestionSet(questions(count))) }

@Suite("MBTI question list")
struct QuestionSetTests {
  @Test("an empty, blank or duplicated list is refused before the quiz starts")
  func malformedListsAreRefused() {
    #expect(throws: QuestionSetProblem.empty) { try QuestionSet([]) }
    var blank = questions(3)
    blank[1].question = "  "
    #expect(throws: QuestionSetProblem.blankQuestion(number: 2)) { try QuestionSet(blank) }
    var duplicated = questions(5)
    duplicated[3].question = duplicated[0].question
    #expect(throws: QuestionSetProblem.duplicate(text: "Question number 1?", numbers: [1, 4])) {
      try QuestionSet(duplicated)
    }
  }

  @Test("the Likert scale has the spec's labels")
  func likert() {
    #expect(Likert.label(1) == "Strongly Disagree")
    #expect(Likert.label(5) == "Strongly Agree")
    #expect(Likert.label(0) == nil)
    #expect(Likert.label(6) == nil)
  }
}

@Suite("MBTI quiz view model")
struct QuizTests {
  @Test("24 questions are paged 6 per page")
  func paging() throws {
    let quiz = try makeQuiz()
    #expect(quiz.pageCount == 4)
    #expect(quiz.indices(onPage: 0) == 0..<6)
    #expect(quiz.indices(onPage: 3) == 18..<24)
    #expect(try makeQuiz(7).pageCount == 2)
    #expect(try makeQuiz(7).indices(onPage: 1) == 6..<7)
  }

  @Test("an answer moves the focus to the next question of the page")
  func answerMovesFocus() throws {
    var quiz = try makeQuiz()
    let step1 = quiz.answerFocused(4)
    #expect(step1)
    #expect(quiz.focus == 1)
    let step2 = quiz.answerFocused(6)
    #expect(!step2, "outside 1-5")
    let step3 = quiz.answer(7, 3)
    #expect(!step3, "not on this page")
    for value in 1...5 { _ = quiz.answerFocused(value) }
    #expect(quiz.focus == 5, "the last question keeps the focus")
    #expect(quiz.answeredCount == 6)
  }

  @Test("Next with a gap jumps to the first missing question and highlights it")
  func perPageValidation() throws {
    var quiz = try makeQuiz()
    quiz.answer(0, 3)
    quiz.answer(1, 3)
    quiz.answer(3, 3)
    let step4 = quiz.next()
    #expect(step4 == .missing(index: 2))
    #expect(quiz.focus == 2)
    #expect(quiz.highlighted == 2)
    #expect(quiz.page == 0)
    quiz.answer(2, 5)
    #expect(quiz.highlighted == nil, "answering the highlighted question clears it")
    let step5 = quiz.next()
    #expect(step5 == .missing(index: 4))
    quiz.answer(4, 1)
    quiz.answer(5, 1)
    let step6 = quiz.next()
    #expect(step6 == .advanced(toPage: 1))
    #expect(quiz.focus == 6)
  }

  @Test("Back and Next keep the answers")
  func backAndNextKeepAnswers() throws {
    var quiz = try makeQuiz()
    for index in 0..<6 { quiz.answer(index, index % 5 + 1) }
    let step7 = quiz.next()
    #expect(step7 == .advanced(toPage: 1))
    quiz.answer(6, 2)
    let step8 = quiz.back()
    #expect(step8)
    let step9 = quiz.back()
    #expect(!step9, "no page before the first")
    #expect(quiz.answers[0..<6].map { $0 } == [1, 2, 3, 4, 5, 1])
    let step10 = quiz.next()
    #expect(step10 == .advanced(toPage: 1))
    #expect(quiz.answers[6] == 2)
  }

  @Test("Submit runs the global first-unanswered check, then sends exact texts once")
  func submit() throws {
    var quiz = try makeQuiz(12)
    for index in 0..<6 { quiz.answer(index, 4) }
    let step11 = quiz.next()
    #expect(step11 == .advanced(toPage: 1))
    for index in 6..<12 where index != 9 { quiz.answer(index, 2) }
    let step12 = quiz.next()
    #expect(step12 == .missing(index: 9))
    quiz.answer(9, 5)
    let step13 = quiz.next()
    #expect(step13 == .lastPage)
    guard case .send(let payload) = quiz.submit() else {
      Issue.record("expected a payload")
      return
    }
    #expect(payload.count == 12)
    #expect(payload["Question number 10?"] == 5)
    #expect(payload["Question number 1?"] == 4)
    let step14 = quiz.submit()
    #expect(step14 == .inFlight, "no second submission while one is in flight")
    quiz.submitFailed("Service unavailable")
    #expect(quiz.submitError == "Service unavailable")
    #expect(quiz.answeredCount == 12, "a failure keeps the answers")
    let step15 = quiz.submit()
    #expect(step15 == .send(payload), "and Submit retries")
  }

  @Test("Submit with a gap on an earlier page shows that page")
  func globalCheck() throws {
    var quiz = try makeQuiz(12)
    // Fill page 1 via restore (answers arrive from a saved session), leaving question 2 open.
    var saved: [String: Int] = [:]
    for number in 1...12 where number != 2 { saved["Question number \(number)?"] = 3 }
    quiz.restore(saved)
    #expect(quiz.page == 0, "restore shows the first page with a gap")
    #expect(quiz.focus == 1)
    quiz.answer(1, 3)
    let step16 = quiz.next()
    #expect(step16 == .advanced(toPage: 1))
    quiz.restore(["Question number 2?": 9])  // out of range: ignored
    #expect(quiz.answers[1] == 3)
    var other = try makeQuiz(12)
    other.restore(saved)
    _ = other.next()
    let step17 = other.submit()
    #expect(step17 == .missing(index: 1))
    #expect(other.page == 0)
    #expect(other.highlighted == 1)
  }

  @Test("restore ignores unknown texts and lands on the last page when complete")
  func restoreComplete() throws {
    var quiz = try makeQuiz(12)
    var saved: [String: Int] = ["Not a question": 3]
    for number in 1...12 { saved["Question number \(number)?"] = 1 }
    quiz.restore(saved)
    #expect(quiz.isComplete)
    #expect(quiz.page == 1)
    #expect(quiz.payload.count == 12)
  }
}

@Suite("MBTI answers file")
struct AnswersFileTests {
  let list = questions()

  func parse(_ json: String) throws(AnswersProblem) -> [String: Int] {
    try AnswersFile.parse(Data(json.utf8), questions: list)
  }

  @Test("an array of 24 integers maps to the questions in order")
  func array() throws {
    let answers = try parse("[" + (1...24).map { String($0 % 5 + 1) }.joined(separator: ",") + "]")
    #expect(answers["Question number 1?"] == 2)
    #expect(answers["Question number 24?"] == 5)
    #expect(answers.count == 24)
  }

  @Test("an object keyed by exact question text")
  func object() throws {
    let body = (1...24).map { "\"Question number \($0)?\": 3" }.joined(separator: ",")
    #expect(try parse("{\(body)}").values.allSatisfy { $0 == 3 })
  }

  @Test("bad answers name the question numbers")
  func problems() {
    #expect(throws: AnswersProblem.wrongCount(expected: 24, got: 2)) { try parse("[1, 2]") }
    var values = Array(repeating: "3", count: 24)
    values[4] = "6"
    values[9] = "0"
    #expect(throws: AnswersProblem.outOfRange(numbers: [5, 10])) { try parse("[\(values.joined(separator: ","))]") }
    values = Array(repeating: "3", count: 24)
    values[0] = "2.5"
    values[1] = "\"4\""
    values[2] = "true"
    #expect(throws: AnswersProblem.notIntegers(numbers: [1, 2, 3])) { try parse("[\(values.joined(separator: ","))]") }
    #expect(throws: AnswersProblem.missing(numbers: Array(2...24))) { try parse("{\"Question number 1?\": 3}") }
    #expect(throws: AnswersProblem.unknownQuestions(["question number 1?"])) {
      try parse("{\"question number 1?\": 3}")
    }
    #expect(throws: AnswersProblem.wrongShape) { try parse("\"INTJ\"") }
    #expect(throws: AnswersProblem.self) { try parse("{not json") }
    // A number too large for an integer is not a whole number 1-5 either (and never traps).
    #expect(throws: AnswersProblem.notIntegers(numbers: [1])) {
      try parse("[99999999999999999999" + String(repeating: ",3", count: 23) + "]")
    }
  }

  @Test("messages name the numbers and the fix")
  func messages() {
    #expect(AnswersProblem.outOfRange(numbers: [5, 10]).message == "Answers to questions 5, 10 are outside 1-5.")
    #expect(AnswersProblem.outOfRange(numbers: [24]).message == "The answer to question 24 is outside 1-5.")
    #expect(AnswersProblem.notIntegers(numbers: [3]).message == "The answer to question 3 is not a whole number 1-5.")
    #expect(AnswersProblem.missing(numbers: [4]).message == "Question 4 has no answer.")
    #expect(AnswersProblem.missing(numbers: [4, 8]).message == "Questions 4, 8 have no answer.")
    #expect(
      AnswersProblem.notJSON("The data is not valid JSON.").message
        == "The answers are not JSON: The data is not valid JSON.")
    #expect(AnswersProblem.unknownQuestions(["x"]).message.contains("deck mbti questions"))
  }
}

@Suite("MBTI result")
struct ProfileTests {
  @Test("a well-formed result has four letters, one per axis, and every score")
  func wellFormed() {
    let scores = ["E": 10, "I": 14, "S": 12, "N": 12, "T": 20, "F": 4, "J": 1, "P": 23]
    #expect(MbtiProfile(userId: "u", profile: "INTP", scores: scores).isWellFormed)
    #expect(!MbtiProfile(userId: "u", profile: "IXTP", scores: scores).isWellFormed)
    #expect(!MbtiProfile(userId: "u", profile: "INT", scores: scores).isWellFormed)
    #expect(!MbtiProfile(userId: "u", profile: "INTP", scores: ["E": 1]).isWellFormed)
    let profile = MbtiProfile(userId: "u", profile: "INTP", scores: scores)
    #expect(profile.share(ofFirst: ("E", "I")) == 10.0 / 24.0)
    #expect(MbtiProfile(userId: "u", profile: "INTP", scores: [:]).share(ofFirst: ("E", "I")) == 0.5)
  }

  @Test("the response decodes from the service's snake_case JSON")
  func decoding() throws {
    let json = #"{"user_id":"abc","profile":"ENFJ","scores":{"E":1,"I":0,"S":0,"N":1,"T":0,"F":1,"J":1,"P":0}}"#
    let profile = try JSONDecoder().decode(MbtiProfile.self, from: Data(json.utf8))
    #expect(profile.userId == "abc")
    #expect(profile.profile == "ENFJ")
  }
}
