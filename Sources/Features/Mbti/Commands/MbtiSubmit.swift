import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import MbtiRules

struct MbtiSubmit: DeckCommand, NamingFiles {
  static let files = FileArguments(reads: ["--answers"])

  static let configuration = CommandConfiguration(
    commandName: "submit", _superCommandName: "deck",
    abstract: "Submit answers from a file (or stdin) and show the type.",
    discussion: HelpText.discussion(
      """
      The file is a JSON object {"question text": 1-5, …} with the exact texts of `deck mbti
      questions`, or an array of integers 1-5 in question order. It is checked against the live
      questions before anything is sent: a missing answer, a value outside 1-5 or an unknown text
      is a usage error naming the question numbers. The result is saved (`deck mbti result`).
      """,
      exits: [
        .failure(), .usage("bad answers, named by question number (nothing was sent)"),
        .rejected("the service refused the answers"), .unavailable(),
      ]))

  @OptionGroup var global: GlobalOptions

  @Option(
    help: ArgumentHelp("The answers file, or - for stdin.", valueName: "file"), completion: .file(extensions: ["json"]))
  var answers: String

  func run(_ context: DeckContext) async throws {
    let data = try Self.read(answers)
    let store = try MbtiStore(context: context)
    let userID = try store.userID()
    let service = MbtiService(context: context)
    let set = try await service.questions(userID: userID)
    let checked: [String: Int]
    do {
      checked = try AnswersFile.parse(data, questions: set.questions)
    } catch {
      throw DeckError.usage(error.message, hint: "Nothing was sent. `deck mbti questions` lists the questions.")
    }
    let events = MbtiEvents(service: service, outbox: MbtiOutbox(store: store), userID: userID)
    events.send("mbti_submitted")
    let result = try await MbtiResultView.submit(checked, userID: userID, service: service, store: store)
    events.send("mbti_completed", ["type": result.profile])
    await events.finish()
    try MbtiResultView.print(result, context: context)
  }

  /// The file's bytes (at most 1 MB), or stdin's for "-".
  static func read(_ path: String) throws -> Data {
    try InputFile.read(path, what: "the answers file", hint: "Give a readable JSON file, or - for stdin.")
  }
}

/// Submitting and showing a result: the one place both `submit` and the quiz go through.
enum MbtiResultView {
  /// Sends the answers, saves the result (and clears an unfinished quiz's answers).
  static func submit(_ answers: [String: Int], userID: String, service: MbtiService, store: MbtiStore) async throws
    -> MbtiStore.SavedResult
  {
    let profile = try await service.submit(userID: userID, answers: answers)
    let saved = MbtiStore.SavedResult(
      userID: userID, profile: profile.profile, scores: profile.scores, takenAt: Date(),
      environment: store.environment)
    try store.update {
      $0.result = saved
      $0.progress = nil
    }
    return saved
  }

  /// The type, when it was taken, and a bar per axis (`bars: false`, for `quiz --plain`: the
  /// scores in words only, which a screen reader or a serial line reads without noise); as
  /// data, the saved result whole.
  static func print(_ result: MbtiStore.SavedResult, context: DeckContext, bars: Bool = true) throws {
    let output = context.output
    try output.emit(result) {
      output.line(result.profile, style: .bold)
      let lines =
        bars
        ? axisLines(result.mbtiProfile, width: 20, filled: 1)
        : MbtiProfile.axes.map { axis in
          "\(axis.0) \(result.scores[axis.0] ?? 0), \(axis.1) \(result.scores[axis.1] ?? 0)"
        }
      for line in lines { output.line(line) }
      output.info("Taken \(result.takenAt.formatted(.iso8601)) in \(result.environment).")
    }
  }

  /// "E ████████░░░░░░░░░░░░ I   10 : 14" per axis; `filled` (0...1) draws the bars partly,
  /// for the reveal animation.
  static func axisLines(_ profile: MbtiProfile, width: Int, filled: Double) -> [String] {
    MbtiProfile.axes.map { axis in
      let share = profile.share(ofFirst: axis)
      let cells = Int((share * Double(width) * min(1, max(0, filled))).rounded())
      let bar = String(repeating: "█", count: cells) + String(repeating: "░", count: max(0, width - cells))
      return "\(axis.0) \(bar) \(axis.1)   \(profile.scores[axis.0] ?? 0) : \(profile.scores[axis.1] ?? 0)"
    }
  }
}
