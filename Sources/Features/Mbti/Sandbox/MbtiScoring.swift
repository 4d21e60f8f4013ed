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

  static let questions: [Question] = [
    Question(text: "You regularly make new friends.", letter: "E"),
    Question(text: "You prefer to spend a free evening quietly on your own.", letter: "I"),
    Question(
      text: "You spend a lot of your free time exploring various random topics that pique your interest.", letter: "N"),
    Question(
      text: "You prefer tasks that require you to come up with creative solutions rather than follow concrete steps.",
      letter: "N"),
    Question(text: "You are more inclined to follow your head than your heart.", letter: "T"),
    Question(text: "You are deeply moved when others share their difficulties with you.", letter: "F"),
    Question(text: "You usually prefer to get your revenge rather than forgive.", letter: "T"),
    Question(text: "You like to use organizing tools like schedules and lists.", letter: "J"),
    Question(
      text: "You feel comfortable just walking up to someone you find interesting and striking up a conversation.",
      letter: "E"),
    Question(text: "You rely on facts and past experience more than on hunches.", letter: "S"),
    Question(text: "You prefer to keep your options open rather than commit to a plan.", letter: "P"),
    Question(text: "You usually finish your work well before the deadline.", letter: "J"),
    Question(text: "You avoid making phone calls.", letter: "I"),
    Question(text: "You enjoy debating ideas about how the world could be different.", letter: "N"),
    Question(text: "You notice small practical details that others miss.", letter: "S"),
    Question(text: "You value being fair over being kind.", letter: "T"),
    Question(text: "Your mood can change very quickly.", letter: "P"),
    Question(text: "You enjoy being the center of attention at a party.", letter: "E"),
    Question(text: "You prefer instructions that are specific and step by step.", letter: "S"),
    Question(text: "Seeing other people cry can easily make you feel like you want to cry too.", letter: "F"),
    Question(text: "You like to plan your day in advance.", letter: "J"),
    Question(text: "You feel drained after spending a long time with large groups.", letter: "I"),
    Question(text: "You make decisions based on how they will affect the people involved.", letter: "F"),
    Question(text: "You often leave things to the last minute and improvise.", letter: "P"),
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
