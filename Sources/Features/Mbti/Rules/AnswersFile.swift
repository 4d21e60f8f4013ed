import FoundationEssentials

/// Why an answers file cannot be submitted; every case names the questions by number.
public enum AnswersProblem: Error, Equatable, Sendable {
  case notJSON(String)
  case wrongShape
  case wrongCount(expected: Int, got: Int)
  case notIntegers(numbers: [Int])
  case outOfRange(numbers: [Int])
  case unknownQuestions([String])
  case missing(numbers: [Int])

  public var message: String {
    switch self {
    case .notJSON(let reason):
      "The answers are not JSON: \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason)."
    case .wrongShape:
      "The answers must be a JSON object {\"question text\": 1-5, …} or an array of integers 1-5 in question order."
    case .wrongCount(let expected, let got):
      "The answers array has \(got) values; the quiz has \(expected) questions."
    case .notIntegers(let numbers):
      numbers.count == 1
        ? "The answer to question \(Self.list(numbers)) is not a whole number 1-5."
        : "Answers to questions \(Self.list(numbers)) are not whole numbers 1-5."
    case .outOfRange(let numbers):
      numbers.count == 1
        ? "The answer to question \(Self.list(numbers)) is outside 1-5."
        : "Answers to questions \(Self.list(numbers)) are outside 1-5."
    case .unknownQuestions(let texts):
      "No such question\(texts.count == 1 ? "" : "s"): \(texts.prefix(3).map { "\"\($0)\"" }.joined(separator: ", "))\(texts.count > 3 ? " and \(texts.count - 3) more" : ""). Texts must match `deck mbti questions` exactly."
    case .missing(let numbers):
      "\(Self.questions(numbers).capitalizedFirst) \(numbers.count == 1 ? "has" : "have") no answer."
    }
  }

  static func list(_ numbers: [Int]) -> String { numbers.map(String.init).joined(separator: ", ") }

  /// "question 4" or "questions 4, 8".
  public static func questions(_ numbers: [Int]) -> String {
    "question\(numbers.count == 1 ? "" : "s") \(list(numbers))"
  }
}

extension String {
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

/// `deck mbti submit --answers`: a JSON object `{questionText: n}` or an array of integers in
/// question order, checked against the live questions before anything is sent.
public enum AnswersFile {
  /// The answers keyed by exact question text, or the first problem found.
  public static func parse(_ data: Data, questions: [MbtiQuestion]) throws(AnswersProblem) -> [String: Int] {
    let decoded: Decoded
    do {
      decoded = try JSONDecoder().decode(Decoded.self, from: data)
    } catch let error as AnswersProblem {
      throw error
    } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
      throw .notJSON(context.underlyingError.map { "\($0)" } ?? context.debugDescription)
    } catch {
      throw .wrongShape
    }
    switch decoded {
    case .array(let values):
      guard values.count == questions.count else { throw .wrongCount(expected: questions.count, got: values.count) }
      return try check(Dictionary(uniqueKeysWithValues: zip(questions.map(\.question), values)), questions: questions)
    case .object(let values):
      let known = Set(questions.map(\.question))
      let unknown = values.keys.filter { !known.contains($0) }.sorted()
      guard unknown.isEmpty else { throw .unknownQuestions(unknown) }
      return try check(values, questions: questions)
    }
  }

  private static func check(_ values: [String: Value], questions: [MbtiQuestion]) throws(AnswersProblem) -> [String:
    Int]
  {
    var notIntegers: [Int] = []
    var outOfRange: [Int] = []
    var missing: [Int] = []
    var answers: [String: Int] = [:]
    for (index, question) in questions.enumerated() {
      switch values[question.question] {
      case nil: missing.append(index + 1)
      case .other: notIntegers.append(index + 1)
      case .integer(let value):
        if Likert.values.contains(value) { answers[question.question] = value } else { outOfRange.append(index + 1) }
      }
    }
    if !notIntegers.isEmpty { throw .notIntegers(numbers: notIntegers) }
    if !outOfRange.isEmpty { throw .outOfRange(numbers: outOfRange) }
    if !missing.isEmpty { throw .missing(numbers: missing) }
    return answers
  }

  enum Value: Decodable {
    case integer(Int)
    case other

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let value = try? container.decode(Int.self) { self = .integer(value) } else { self = .other }
    }
  }

  enum Decoded: Decodable {
    case object([String: Value])
    case array([Value])

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let object = try? container.decode([String: Value].self) {
        self = .object(object)
      } else if let array = try? container.decode([Value].self) {
        self = .array(array)
      } else {
        throw AnswersProblem.wrongShape
      }
    }
  }
}
