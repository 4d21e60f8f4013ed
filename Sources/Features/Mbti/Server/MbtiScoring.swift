import MbtiRules

/// The sandbox's 24 canonical MBTI questions and their deterministic scoring (documented in
/// the NudgeAPI contract): 6 per axis, 3 pointing toward each letter.
enum MbtiScoring {
  /// A question and the letter that agreeing with it is evidence for.
  struct Question: Sendable {
    let text: String
    let letter: Character
  }

  /// The axes in type order: (first letter, second letter). A tie goes to the second.
  static let axes: [(Character, Character)] = [("E", "I"), ("S", "N"), ("T", "F"), ("J", "P")]

  /// What `GET /questions/` serves as each question's options (mbti-quiz.md: "options": ["Agree","Disagree"]).
  static let options = ["Agree", "Disagree"]

  /// Written for deck (the sandbox's own wording, in the style of a Likert personality quiz).
  static let questions: [Question] = [
    Question(text: "You start conversations with strangers at events without much effort.", letter: "E"),
    Question(text: "A quiet evening at home sounds better to you than a night out.", letter: "I"),
    Question(text: "You often lose track of time reading about ideas that have no practical use.", letter: "N"),
    Question(text: "You would rather invent a new way to do a task than follow a proven recipe.", letter: "N"),
    Question(text: "When you decide, logic weighs more for you than feelings.", letter: "T"),
    Question(text: "Hearing about a friend's problems stays with you for the rest of the day.", letter: "F"),
    Question(text: "You would rather point out a mistake than let it pass to keep the peace.", letter: "T"),
    Question(text: "You keep a to-do list and cross items off it.", letter: "J"),
    Question(text: "You introduce yourself first when you join a new team.", letter: "E"),
    Question(text: "You trust what has worked before more than a hunch.", letter: "S"),
    Question(text: "You like to decide at the last moment, once you see all the options.", letter: "P"),
    Question(text: "You finish assignments days before they are due.", letter: "J"),
    Question(text: "You would rather send a message than make a call.", letter: "I"),
    Question(text: "You enjoy talking about how things might work in a hundred years.", letter: "N"),
    Question(text: "You spot typos and small errors that others overlook.", letter: "S"),
    Question(text: "Fair rules matter more to you than sparing someone's feelings.", letter: "T"),
    Question(text: "Your plans for the weekend usually change as it goes.", letter: "P"),
    Question(text: "You feel energized after a crowded party.", letter: "E"),
    Question(text: "You like instructions that list every step in order.", letter: "S"),
    Question(text: "You are easily moved by a sad film or story.", letter: "F"),
    Question(text: "You plan your day before it begins.", letter: "J"),
    Question(text: "After a long day with many people, you need time alone to recharge.", letter: "I"),
    Question(text: "You weigh how a decision will make people feel before you make it.", letter: "F"),
    Question(text: "You often start work at the last minute and improvise the rest.", letter: "P"),
  ]

  /// The type and the score of each letter for a complete, checked set of answers
  /// (`answers[i]` answers `questions[i]`, each 1-5).
  static func score(_ answers: [Int]) -> (type: String, scores: [String: Int]) {
    var scores: [Character: Int] = [:]
    for (first, second) in axes {
      scores[first] = 0
      scores[second] = 0
    }
    for (question, value) in zip(questions, answers) {
      guard let axis = axes.first(where: { $0.0 == question.letter || $0.1 == question.letter }) else { continue }
      let other = axis.0 == question.letter ? axis.1 : axis.0
      scores[question.letter, default: 0] += value - 1
      scores[other, default: 0] += 5 - value
    }
    let type = String(axes.map { (scores[$0.0] ?? 0) > (scores[$0.1] ?? 0) ? $0.0 : $0.1 })
    return (type, Dictionary(uniqueKeysWithValues: scores.map { (String($0.key), $0.value) }))
  }

  /// Why a set of answers cannot be scored; the message names the offending questions.
  struct Problem: Error {
    var message: String
    var numbers: [Int] = []
    var unknown: [String] = []
  }

  /// The answers in question order, or what is wrong with them.
  static func check(_ answers: [String: Int]) -> Result<[Int], Problem> {
    let index = Dictionary(uniqueKeysWithValues: questions.enumerated().map { ($1.text, $0) })
    let unknown = answers.keys.filter { index[$0] == nil }.sorted()
    if !unknown.isEmpty {
      return .failure(
        Problem(
          message:
            "Unknown question text\(unknown.count == 1 ? "" : "s") (answers must use the exact texts from GET /questions/): "
            + unknown.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ") + (unknown.count > 3 ? ", …" : ""),
          unknown: unknown))
    }
    let outOfRange = questions.indices.filter { answers[questions[$0].text].map { !(1...5).contains($0) } ?? false }
    if !outOfRange.isEmpty {
      let numbers = outOfRange.map { $0 + 1 }
      return .failure(
        Problem(
          message:
            "Answers must be 1-5; \(AnswersProblem.questions(numbers)) \(numbers.count == 1 ? "is" : "are") not.",
          numbers: numbers))
    }
    let missing = questions.indices.filter { answers[questions[$0].text] == nil }
    if !missing.isEmpty {
      let numbers = missing.map { $0 + 1 }
      return .failure(
        Problem(
          message:
            "Every question needs an answer; \(AnswersProblem.questions(numbers)) \(numbers.count == 1 ? "has" : "have") none.",
          numbers: numbers))
    }
    return .success(questions.map { answers[$0.text] ?? 3 })
  }
}
