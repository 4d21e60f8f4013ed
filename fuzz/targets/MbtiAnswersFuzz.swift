import Foundation

// libFuzzer target: `deck mbti submit --answers` files, checked against a 24-question quiz.
// Invariants: nothing traps; accepted answers cover every question exactly, each 1-5.

let questions = (1...24).map { MbtiQuestion(question: "Question \($0)?", options: ["Agree", "Disagree"]) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(UnsafeBufferPointer(start: data, count: size))
  if let answers = try? AnswersFile.parse(bytes, questions: questions) {
    precondition(answers.count == questions.count)
    precondition(answers.values.allSatisfy { (1...5).contains($0) })
    precondition(questions.allSatisfy { answers[$0.question] != nil })
  }
  return 0
}
