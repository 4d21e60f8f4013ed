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
      back is not recorded twice. --send says how many it sent. With --json, an array of {id,
      userId, type, details, createdAt, attempts, lastError, lastFault (the sandbox fault rule
      that failed the last attempt, if one did)}; an empty array when nothing is waiting.
      """,
      exits: [.failure("the outbox cannot be read"), .unavailable("--send: events are still waiting")]))

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Send the waiting events now (for up to 10 s), then list what is still waiting.")
  var send = false

  func run(_ context: DeckContext) async throws {
    let store = try MbtiStore(context: context)
    let outbox = MbtiOutbox(store: store)
    let output = context.output
    if send {
      if (try outbox.load()).isEmpty {
        output.info("No MBTI events to send in \(store.environment).")
      } else {
        let events = MbtiEvents(service: MbtiService(context: context), outbox: outbox, userID: try store.userID())
        await events.finish(within: .seconds(10))
        output.info(Self.sentSummary(sent: events.count(.sent), refused: events.count(.refused)))
      }
    }
    let entries = try outbox.load()
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
        hint: Self.waitingHint(entries))
    }
  }

  /// `Sent 3 MBTI events to nudge.`, with those the service refused for good (dropped).
  static func sentSummary(sent: Int, refused: Int) -> String {
    let events = { (count: Int) in "\(count) MBTI event\(count == 1 ? "" : "s")" }
    let dropped = refused == 0 ? "" : "; nudge refused \(events(refused)) for good, which deck dropped"
    return "Sent \(events(sent)) to nudge\(dropped)."
  }

  /// What to do about events still waiting: the sandbox fault rule that failed them when one
  /// did (the answer carried `X-Sandbox-Fault`), else the service's URL.
  static func waitingHint(_ entries: [MbtiOutbox.Entry]) -> String {
    let rules = entries.compactMap(\.lastFault).reduce(into: [String]()) { rules, rule in
      if !rules.contains(rule) { rules.append(rule) }
    }
    guard let rule = rules.first else {
      return "They are sent by the next command that talks to nudge; check its URL with `deck env show`."
    }
    let clear = SandboxFaultMark.id(of: rule).map { "deck sandbox fault clear \($0)" } ?? "deck sandbox fault clear"
    return "The sandbox's fault \(rules.joined(separator: ", ")) failed them: see it with `deck sandbox fault list`, "
      + "remove it with `\(clear)`; they are sent by the next command that talks to nudge."
  }
}
