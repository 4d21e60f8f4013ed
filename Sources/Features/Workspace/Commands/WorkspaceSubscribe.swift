import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import WorkspaceAPI
import WorkspaceRules

struct WorkspaceSubscribe: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "subscribe", _superCommandName: "deck",
    abstract: "Start a checkout for your workspace (POST /api/billing/stripe/checkout).",
    discussion: HelpText.discussion(
      """
      Give --plan and --currency, or an allow-listed --price-id. Prints the checkout URL to open
      and pay at; with --wait, then polls GET /api/access/state until the workspace has access.
      Only the owner subscribes: a member gets the member-inactive message instead.
      With --json, {url} (and hasAccess with --wait).
      """,
      exits: [
        .failure("timed out waiting"), .usage(), .rejected("price refused"), .unavailable(),
        .unauthorized("not signed in, or a member of an inactive workspace"), .interrupted(),
      ]))

  @OptionGroup var global: GlobalOptions

  @Option(help: "The plan.")
  var plan: Plan?

  @Option(help: "The currency.")
  var currency: Currency?

  @Option(name: .customLong("price-id"), help: ArgumentHelp("An allow-listed price id.", valueName: "id"))
  var priceID: String?

  @Flag(help: "Wait until the workspace has access (after paying at the URL).")
  var wait = false

  @Option(help: ArgumentHelp("How long --wait waits (default 600).", valueName: "seconds"))
  var waitTimeout: Double?

  static let pollInterval: Duration = .seconds(1)

  struct Result: Encodable {
    var url: String?
    var hasAccess: Bool?
  }

  func run(_ context: DeckContext) async throws {
    let choice: CheckoutChoice
    do {
      choice = try CheckoutChoice.make(plan: plan, currency: currency, priceID: priceID)
    } catch {
      throw DeckError.usage(error.message, hint: "e.g. deck workspace subscribe --plan annual --currency USD")
    }
    if let waitTimeout {
      guard wait else { throw DeckError.usage("--wait-timeout goes with --wait.") }
      guard waitTimeout > 0, waitTimeout <= 86_400 else {
        throw DeckError.usage("--wait-timeout must be between 0 and 86400 seconds, got \(waitTimeout).")
      }
    }
    let service = WorkspaceService(context: context)
    let state = try await service.accessState()
    switch state.role {
    case .admin?, .member?:
      guard state.hasAccess else {
        throw DeckError(
          .unauthorized(status: nil), MemberInactive.message,
          hint: "Only the workspace owner can subscribe (the subscription belongs to the workspace).")
      }
      return try alreadyActive(context, owner: false)
    case .owner? where state.hasAccess:
      return try alreadyActive(context, owner: true)
    default:
      break
    }

    let body: Components.Schemas.CheckoutRequest =
      switch choice {
      case .plan(let plan, let currency):
        .init(plan: .init(rawValue: plan.rawValue), currency: .init(rawValue: currency.rawValue))
      // A price the document does not list is sent as nothing, which the server refuses alike.
      case .priceID(let id): .init(priceId: .init(rawValue: id))
      }
    let url = try await service.asOwner {
      try await service.client().createCheckoutSession(body: .json(body)).ok.body.json.url
    }
    func showURL() {
      context.output.info("Open the checkout page and pay:")
      context.output.line(url)
    }
    guard wait else { return try context.output.emit(Result(url: url), table: showURL) }
    // A person gets the URL at once, to pay while deck waits; the data comes when it is over.
    if context.output.isHuman { showURL() }
    try await waitForAccess(service, context: context, timeout: waitTimeout ?? 600)
    try context.output.emit(Result(url: url, hasAccess: true)) {}
  }

  func alreadyActive(_ context: DeckContext, owner: Bool) throws {
    try context.output.emit(
      Result(url: nil, hasAccess: true),
      message: owner
        ? "Your workspace already has access; there is nothing to pay." : "Your workspace already has access.")
  }

  /// Polls the access state until `hasAccess`, with a spinner on a terminal.
  func waitForAccess(_ service: WorkspaceService, context: DeckContext, timeout: Double) async throws {
    let spinner = Spinner(output: context.output)
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int64(timeout * 1000))
    spinner.start("Waiting for the payment (Ctrl-C stops waiting)…")
    var warned: String?
    do {
      while true {
        // An unavailable backend (5xx, 429 after deck's retries, no connection) is ridden out
        // until the deadline: the payment may well go through meanwhile.
        do {
          if try await service.accessState().hasAccess { break }
          warned = nil
        } catch {
          let failure = ErrorPresenter.deckError(for: error)
          guard case .unavailable = failure.kind, !Task.isCancelled else { throw error }
          if failure.message != warned {
            spinner.stop()
            context.output.error("\(failure.message) (still waiting)")
            spinner.start("Waiting for the payment (Ctrl-C stops waiting)…")
            warned = failure.message
          }
        }
        let remaining = clock.now.duration(to: deadline)
        guard remaining > .zero else {
          throw DeckError(
            .failure, "Timed out after \(Self.seconds(timeout)) s: the workspace has no access yet.",
            hint:
              "Pay at the checkout URL, then check with: deck workspace access (an owner also needs onboarding completed)."
          )
        }
        try await Task.sleep(for: min(Self.pollInterval, remaining))
      }
    } catch {
      spinner.stop()
      throw error
    }
    spinner.stop(context.output.isHuman ? "Subscription active: the workspace has access." : nil)
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
