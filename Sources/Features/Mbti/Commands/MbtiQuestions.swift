import ArgumentParser
import DeckCore
import MbtiRules

struct MbtiQuestions: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "questions", _superCommandName: "deck",
    abstract: "List the quiz's questions, numbered, in the service's order.",
    discussion: HelpText.discussion(
      """
      The numbers are the ones `submit` and the service's errors use. With --json, an array of
      {number, question, options}, the texts exactly as served.
      """,
      exits: [.failure("the service sent an unusable question list"), .unavailable("couldn't load questions")]))

  @OptionGroup var global: GlobalOptions

  struct Row: Encodable {
    var number: Int
    var question: String
    var options: [String]
  }

  func run(_ context: DeckContext) async throws {
    let store = try MbtiStore(context: context)
    let userID = try store.userID()
    let service = MbtiService(context: context)
    // Events an earlier command could not deliver go out alongside.
    let events = MbtiEvents(service: service, outbox: MbtiOutbox(store: store), userID: userID)
    let set: QuestionSet
    do {
      set = try await service.questions(userID: userID)
    } catch {
      await events.finish()
      throw error
    }
    await events.finish()
    let rows = set.questions.enumerated().map { Row(number: $0 + 1, question: $1.question, options: $1.options) }
    try context.output.emit(rows) {
      let width = String(rows.count).count
      for row in rows {
        let number = String(row.number)
        context.output.paragraph(
          String(repeating: " ", count: width - number.count) + "\(number). \(row.question)", indent: width + 2)
      }
    }
  }
}
