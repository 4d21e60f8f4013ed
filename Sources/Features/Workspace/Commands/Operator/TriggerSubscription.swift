import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxWorkspaceAPI

struct TriggerSubscription: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "subscription", _superCommandName: "deck",
    abstract: "Set a workspace subscription directly (as the Stripe webhook would).",
    discussion: HelpText.discussion(
      """
      Sets subscription_status (and trial_ends_at) of the workspace the owner owns. Access follows
      the backend's rule: active, or trialing with no end or an end in the future.
      --trial-ends takes a date (2026-03-01, midnight UTC), a date-time (2026-03-01T12:00:00Z) or
      an offset from now (+7d, -1d, +2h, -30m); it only goes with --status trialing. Without it the
      trial end is cleared.
      """,
      exits: SandboxOperator.exits + [
        .failure("no such owner"), .usage("bad input or not a sandbox (nothing was sent)"),
      ]))

  enum Status: String, ExpressibleByArgument, CaseIterable {
    case active, trialing
    case pastDue = "past_due"
    case inactive
  }

  @OptionGroup var global: GlobalOptions

  @Option(help: "The workspace owner's email.")
  var email: String

  @Option(help: "The subscription status.")
  var status: Status

  @Option(help: ArgumentHelp("When the trial ends (with --status trialing).", valueName: "date"))
  var trialEnds: String?

  func validate() throws {
    if trialEnds != nil && status != .trialing {
      throw ValidationError("--trial-ends only goes with --status trialing.")
    }
    if let trialEnds, TrialEnd.parse(trialEnds, now: Date()) == nil {
      throw ValidationError(
        "--trial-ends must be a date (2026-03-01), a date-time (2026-03-01T12:00:00Z) or an offset (+7d, -1d, +2h), got \"\(trialEnds)\"."
      )
    }
  }

  func run(_ context: DeckContext) async throws {
    let end = trialEnds.flatMap { TrialEnd.parse($0, now: Date()) }
    let update = Components.Schemas.SubscriptionUpdate(
      email: email, status: .init(rawValue: status.rawValue) ?? .inactive,
      trial_ends_at: end.map { $0.formatted(.iso8601) })
    let workspace = try await WorkspaceAdmin.client(context).setSubscription(body: .json(update)).ok.body.json
    try WorkspaceAdmin.show(
      workspace, context: context,
      message: "\(workspace.name) (\(workspace.owner_email ?? email)) is now \(status.rawValue)"
        + (end.map { ", trial ending \($0.formatted(.iso8601))" } ?? "") + ".")
  }
}

/// Trial end dates as an operator types them.
enum TrialEnd {
  static func parse(_ text: String, now: Date) -> Date? {
    let trimmed = text.trimming(.whitespaces)
    if let first = trimmed.first, first == "+" || first == "-", let unit = trimmed.last,
      let amount = Double(trimmed.dropFirst().dropLast())
    {
      let seconds: Double
      switch unit {
      case "d": seconds = amount * 86_400
      case "h": seconds = amount * 3_600
      case "m": seconds = amount * 60
      case "s": seconds = amount
      default: return nil
      }
      return now.addingTimeInterval(first == "+" ? seconds : -seconds)
    }
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(trimmed) { return date }
    if let date = try? Date.ISO8601FormatStyle().parse(trimmed) { return date }
    if let date = try? Date.ISO8601FormatStyle().year().month().day().parse(trimmed) { return date }
    return nil
  }
}
