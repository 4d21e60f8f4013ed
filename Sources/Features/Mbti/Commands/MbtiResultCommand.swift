import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials

struct MbtiResultCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "result", _superCommandName: "deck", abstract: "Show the last result taken in this environment.",
    discussion: HelpText.discussion(
      "Read from the local state; nothing is sent. With --json, the saved result whole.",
      exits: [.failure("no result yet")]))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let store = try MbtiStore(context: context)
    guard let result = try store.load().result else {
      throw DeckError.failure(
        "No MBTI result in \(store.environment) yet.", hint: "Take the quiz: deck mbti quiz (or deck mbti submit).")
    }
    try MbtiResultView.print(result, context: context)
  }
}

struct MbtiUserID: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "user-id", _superCommandName: "deck",
    abstract: "Show (or with --reset, replace) the anonymous user id.",
    discussion: HelpText.discussion(
      """
      The quiz's user is an anonymous UUID made once per environment and kept, like the app's
      ms_user_id. --reset makes a new one (the last result and unfinished answers are kept).
      """,
      exits: []))

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Make a new anonymous id.")
  var reset = false

  struct View: Encodable {
    var userId: String
    var environment: String
  }

  func run(_ context: DeckContext) async throws {
    let store = try MbtiStore(context: context)
    if reset {
      let made = UUID().uuidString.lowercased()
      try store.update { $0.userID = made }
    }
    let id = try store.userID()
    try context.output.emit(View(userId: id, environment: store.environment)) { context.output.line(id) }
  }
}
