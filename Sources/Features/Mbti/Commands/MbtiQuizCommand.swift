import ArgumentParser
import DeckCore
import DeckSupport
import MbtiRules

struct MbtiQuizCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "quiz", _superCommandName: "deck",
    abstract: "Take the quiz: full-screen, or one prompt per question with --plain.",
    discussion: HelpText.discussion(
      """
      The 24 questions come from the nudge service, 6 to a page. Full-screen: 1-5 answer the
      focused question and move to the next; ↑/↓ move between questions, ←/→ and Enter choose a
      value; n (or Tab) is Next, Submit on the last page; b is Back. Next with a question left
      open rings the bell and jumps to it. The screen fits the terminal (all the scale's labels
      from about 90 columns, else the numbers and the label under the cursor; at least 40×12) and
      is redrawn when the window is resized. Questions that fail to load show a card: r retries,
      q cancels (exit 69). --plain asks one question per line instead (for screen readers, dumb
      terminals and serial lines), with the same pages and checks; it exits 69 when the questions
      cannot be loaded.

      Answers are saved as they are given: after Ctrl-C (which asks whether to keep them) or a
      crash, `deck mbti quiz --resume` continues where it stopped. A failed submission keeps the
      answers and can be retried. The result is saved (`deck mbti result`); its reveal is not
      animated with NO_COLOR or DECK_REDUCE_MOTION set. Events (onboarding_take_test,
      mbti_page_advance, mbti_submitted, mbti_completed) are sent in the background and never
      fail or hold up the quiz; one the service did not confirm is kept and sent by the next
      command that talks to it (`deck mbti events` lists them). onboarding_take_test is sent once
      per quiz, not again by --resume.
      """,
      exits: [
        .failure("the service sent an unusable question list"), .usage("no terminal, or nothing to resume"),
        .rejected("the service refused the answers"), .unavailable("couldn't load questions"),
        .interrupted("stopped before submitting (answers kept or discarded, as chosen)"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Flag(help: "One prompt per question instead of the full screen.")
  var plain = false

  @Flag(help: "Continue the answers saved by a quiz that was stopped.")
  var resume = false

  func run(_ context: DeckContext) async throws {
    guard TerminalInput.stdinIsTerminal, context.output.stdoutIsTerminal else {
      throw DeckError.usage(
        "The quiz needs a terminal on stdin and stdout.",
        hint: "To answer from a script: deck mbti submit --answers FILE (see deck mbti questions).")
    }
    let store = try MbtiStore(context: context)
    let userID = try store.userID()
    let service = MbtiService(context: context)
    let saved = try store.load().progress ?? [:]
    if resume && saved.isEmpty {
      throw DeckError.usage(
        "There is no unfinished quiz to resume in \(store.environment).", hint: "Start one: deck mbti quiz")
    }
    let events = MbtiEvents(service: service, outbox: MbtiOutbox(store: store), userID: userID)
    let flow = MbtiQuizFlow(service: service, store: store, events: events, userID: userID)
    let startingOver =
      "Starting over; the answers of the unfinished quiz are replaced (--resume would continue it)."
    var startedOver = false
    // The quiz, once its questions are loaded.
    let start = { (set: QuestionSet) -> MbtiQuiz in
      var quiz = MbtiQuiz(set)
      if resume {
        quiz.restore(saved)
      } else {
        if !saved.isEmpty {
          flow.discard()
          startedOver = true
          if plain { context.output.info(startingOver) }
        }
        // Once per quiz: a resumed quiz is the same one.
        events.send("onboarding_take_test")
      }
      return quiz
    }
    let outcome: MbtiQuizScreen.Outcome
    if plain {
      guard let reader = context.session.lineReader else {
        throw DeckError.usage("--plain needs a line reader; run it from deck itself.")
      }
      // Line by line, a failure to load ends the command (exit 69), as without a terminal.
      let set = try await service.questions(userID: userID)
      let quiz = start(set)
      var plainQuiz = MbtiPlainQuiz(quiz: quiz, flow: flow, prompt: Prompt(reader: reader), output: context.output)
      outcome = try await plainQuiz.run()
    } else {
      let environment = context.session.processEnvironment
      let reduceMotion =
        !(environment["NO_COLOR"] ?? "").isEmpty || !(environment["DECK_REDUCE_MOTION"] ?? "").isEmpty
      outcome = try await MbtiQuizScreen(
        flow: flow, output: context.output, reduceMotion: reduceMotion,
        load: { try await service.questions(userID: userID) }, start: start
      ).run()
      if startedOver { context.output.info(startingOver) }
    }
    await events.finish()
    switch outcome {
    case .completed(let result):
      try MbtiResultView.print(result, context: context, bars: !plain)
    case .kept:
      let count = (try? store.load().progress)?.count ?? 0
      let resume = "Continue with: deck mbti quiz --resume"
      switch count {
      case 0: try left("Quiz left before any question was answered; nothing is saved.", context)
      case 1: try left("Quiz left; your answer is saved.", then: resume, context)
      default: try left("Quiz left; your \(count) answers are saved.", then: resume, context)
      }
    case .discarded:
      flow.discard()
      try left("Quiz left; your answers were discarded.", context)
    case .cancelled(let error?):
      throw error
    case .cancelled(nil):
      try left("Quiz left before its questions were loaded.", context)
    }
  }

  /// The person chose to leave: said plainly, not as an error, and the documented exit 130
  /// (stopped before submitting).
  func left(_ message: String, then hint: String? = nil, _ context: DeckContext) throws -> Never {
    context.output.info(message)
    if let hint { context.output.info(hint) }
    throw ArgumentParser.ExitCode(DeckSupport.ExitCode.interrupted)
  }
}
