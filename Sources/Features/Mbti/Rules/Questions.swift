/// One quiz question as the nudge service sends it (`GET /questions/`): the text is the key
/// the answers are submitted under, so it is kept exactly as received.
public struct MbtiQuestion: Sendable, Equatable, Codable {
  public var question: String
  public var options: [String]

  public init(question: String, options: [String]) {
    self.question = question
    self.options = options
  }
}

/// The Likert scale every question is answered on (mbti-quiz.md, "Likert 1–5 with labels").
public enum Likert {
  public static let values = 1...5
  public static let labels = ["Strongly Disagree", "Disagree", "Neutral", "Agree", "Strongly Agree"]

  /// The label of a value, e.g. 5 → "Strongly Agree"; nil outside 1–5.
  public static func label(_ value: Int) -> String? {
    values.contains(value) ? labels[value - 1] : nil
  }
}

/// Why a question list cannot be used for a quiz ("Empty or malformed questions: defensive
/// check; disable submit").
public enum QuestionSetProblem: Error, Equatable, Sendable {
  case empty
  case blankQuestion(number: Int)
  case duplicate(text: String, numbers: [Int])

  public var message: String {
    switch self {
    case .empty:
      "The server sent no questions."
    case .blankQuestion(let number):
      "Question \(number) from the server has no text."
    case .duplicate(let text, let numbers):
      "The server sent the question \"\(text)\" more than once (numbers \(numbers.map(String.init).joined(separator: ", "))); answers are keyed by question text, so they could not be told apart."
    }
  }
}

/// A question list that a quiz can run on: not empty, every text non-blank and unique.
public struct QuestionSet: Sendable, Equatable {
  public let questions: [MbtiQuestion]

  public init(_ questions: [MbtiQuestion]) throws(QuestionSetProblem) {
    guard !questions.isEmpty else { throw .empty }
    var seen: Set<String> = []
    for (index, question) in questions.enumerated() {
      if question.question.allSatisfy(\.isWhitespace) { throw .blankQuestion(number: index + 1) }
      guard seen.insert(question.question).inserted else {
        let numbers = questions.indices.filter { questions[$0].question == question.question }.map { $0 + 1 }
        throw .duplicate(text: question.question, numbers: numbers)
      }
    }
    self.questions = questions
  }

  public var count: Int { questions.count }
}
