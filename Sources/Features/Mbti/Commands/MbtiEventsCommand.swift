import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials

struct MbtiEventsCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "events", _superCommandName: "deck",
    abstract: "List the quiz's events not yet delivered to the nudge service (--send: send them now).",
    discussion: HelpText.discussion(
      """
      Events are kept in a small outbox per environment until the service confirms them, and
      every command that talks to nudge (questions, quiz, submit) sends what is waiting first.
      Each is sent with its id as Idempotency-Key, so one the service stored without deck hearing
      back is not recorded twice. With --json, an array of {id, userId, type, details,
      createdAt, attempts, lastError}; an empty array when nothing is waiting.
      """,
      exits: [.failure("the outbox cannot be read"), .unavailable("--send: events are still waiting")]))

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Send the waiting events now (for up to 10 s), then list what is still waiting.")
  var send = false

  func run(_ context: DeckContext) async throws {
    let store = try MbtiStore(context: context)
    let outbox = MbtiOutbox(store: store)
    if send, !(try outbox.load()).isEmpty {
      let events = MbtiEvents(service: MbtiService(context: context), outbox: outbox, userID: try store.userID())
      await events.finish(within: .seconds(10))
    }
    let entries = try outbox.load()
    let output = context.output
    try output.emit(entries) {
      guard !entries.isEmpty else {
        output.paragraph("No MBTI events waiting to be sent in \(store.environment).")
        return
      }
      output.table(
        ["CREATED", "EVENT", "DETAILS", "ATTEMPTS", "LAST ERROR"],
        entries.map { entry in
          let details = entry.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
          return [
            entry.createdAt.formatted(.iso8601), entry.type, details.joined(separator: " "), String(entry.attempts),
            entry.lastError ?? "",
          ]
        })
    }
    if send, !entries.isEmpty {
      throw DeckError(
        .unavailable(status: nil), "\(entries.count) MBTI event\(entries.count == 1 ? " is" : "s are") still waiting.",
        hint: "They are sent by the next command that talks to nudge; check it with `deck env show`.")
    }
  }
}
