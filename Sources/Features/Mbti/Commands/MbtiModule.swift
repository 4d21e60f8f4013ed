import ArgumentParser
import DeckConfig
import DeckCore

/// `deck mbti`: the 24-question MBTI quiz of the nudge service (mbti-quiz.md).
public enum MbtiModule: DeckModule {
  public static let name = "mbti"
  public static let summary = "Take the MBTI quiz, submit answers, and see the result."
  public static let services: [Service] = [.nudge]
  public static var commands: [any ParsableCommand.Type] { [MbtiCommand.self] }
  public static var sandboxCommands: SandboxCommands { SandboxCommands(inspect: [InspectEvents.self]) }
}

struct MbtiCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mbti", abstract: MbtiModule.summary,
    discussion: HelpText.discussion(
      """
      The quiz has 24 questions from the nudge service, 6 to a page, each answered on a 1-5 scale
      (Strongly Disagree to Strongly Agree). `quiz` runs it full-screen (or one prompt per question
      with --plain), `submit` sends answers from a file, `result` shows the last result, `events` the
      analytics events still waiting to be delivered. The user
      is an anonymous id kept per environment (`user-id`), as the app's ms_user_id.
      """,
      exits: [
        .failure("failure, or no result yet"), .usage("bad answers or input (nothing was sent)"),
        .rejected("the service refused the answers"), .unavailable("couldn't load questions or submit"),
        .interrupted(),
      ]),
    subcommands: [
      MbtiQuestions.self, MbtiQuizCommand.self, MbtiSubmit.self, MbtiResultCommand.self, MbtiEventsCommand.self,
      MbtiUserID.self,
    ])
}

extension Service {
  /// Nudge, which serves the MBTI quiz.
  static let nudge = Service(
    "nudge", summary: "mbti quiz",
    defaultURLs: [
      "dev": "https://api-dev.nudge.starshape.in", "staging": "https://api-staging.nudge.starshape.in",
      "production": "https://api.nudge.starshape.in", "simulator": "http://127.0.0.1:8000",
    ])
}
