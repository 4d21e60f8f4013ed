import ArgumentParser
import BrokerageRules
import DeckCore
import DeckSupport
import WorkspaceAPI
import WorkspaceRules

struct WorkspaceOnboard: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "onboard", _superCommandName: "deck",
    abstract: "Complete onboarding of your workspace (POST /api/onboarding/complete).",
    discussion: HelpText.discussion(
      """
      Required: --first-name, --last-name, --use-case, --workspace-name, --industry. On a terminal,
      a wizard asks for whatever is missing, in the onboarding's step order (name, use case,
      workspace name, industry, brokerage for Real Estate, invites for team), shows a summary and
      asks before it submits. Elsewhere, missing values are a usage error.

      --industry is one of the allowed industries, in any case. --brokerage (a name) or
      --brokerage-id (a UUID, e.g. from `deck brokerage search`) only go with Real Estate, which
      they imply when --industry is absent. A typed name is sent as text: the server stores the
      canonical brokerage when the name matches one, else the text as a new brokerage.
      --invite EMAIL (repeatable) invites members and implies --use-case team.

      Everything is checked before anything is sent, and only one request is ever in flight.
      On success, prints the next route (subscribe). With --json, the response body.
      """,
      exits: [
        .failure("cancelled"), .usage("bad or missing input (nothing was sent)"),
        .rejected("rejected, e.g. no owner workspace"), .unavailable(), .unauthorized("not signed in"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Option(help: "Your first name.")
  var firstName: String?

  @Option(help: "Your last name.")
  var lastName: String?

  @Option(help: "The workspace's name.")
  var workspaceName: String?

  @Option(help: "The workspace's industry.")
  var industry: Industry?

  @Option(
    help: ArgumentHelp("Your brokerage's name (Real Estate only).", valueName: "name"),
    completion: DynamicCompletion.kind(BrokerageRules.nameCompletionID))
  var brokerage: String?

  @Option(name: .customLong("brokerage-id"), help: ArgumentHelp("An existing brokerage's id.", valueName: "uuid"))
  var brokerageID: String?

  @Option(help: "Solo, or team (with invites).")
  var useCase: UseCase?

  @Option(name: .customLong("invite"), help: ArgumentHelp("Invite a member (repeatable).", valueName: "email"))
  var invites: [String] = []

  @Option(help: "A referral code.")
  var referralCode: String?

  var flags: OnboardingFlags {
    OnboardingFlags(
      firstName: firstName, lastName: lastName, workspaceName: workspaceName, industry: industry?.rawValue,
      brokerage: brokerage, brokerageID: brokerageID, useCase: useCase, invites: invites, referralCode: referralCode)
  }

  func run(_ context: DeckContext) async throws {
    var draft: OnboardingDraft
    do {
      draft = try OnboardingRules.draft(from: flags)
    } catch {
      throw DeckError.usage(error.message)
    }
    if !draft.missing.isEmpty {
      guard let prompt = OnboardingWizard.prompt(context) else {
        throw DeckError.usage(
          OnboardingProblem.missing(draft.missing).message,
          hint: "Pass them as flags, or run deck workspace onboard on a terminal for the wizard.")
      }
      var wizard = OnboardingWizard(
        context: context, prompt: prompt, draft: draft, asksBrokerage: brokerage == nil && brokerageID == nil,
        asksInvites: invites.isEmpty, asksReferralCode: referralCode == nil)
      draft = try await wizard.run()
    }
    let payload: OnboardingPayload
    do {
      payload = try draft.payload()
    } catch {
      throw DeckError.usage(error.message)
    }
    let response = try await OnboardingSubmitter().submit(payload, service: WorkspaceService(context: context))
    try context.output.emit(response) {
      context.output.info("Onboarding complete.")
      let path = response.redirect ?? "/subscribe"
      RouteView.print(Route(path: path), name: path, path: path, context: context)
    }
  }
}

/// Sends `POST /api/onboarding/complete`, one request at a time (brokerage QA matrix row 7):
/// a second submission through the same submitter while one is in flight is refused, never
/// sent. A command makes its own; nothing is shared between commands or sessions.
actor OnboardingSubmitter {
  private var gate = SubmissionGate()

  func submit(_ payload: OnboardingPayload, service: WorkspaceService) async throws
    -> Components.Schemas.OnboardingCompleteResponse
  {
    guard gate.begin() else {
      throw DeckError.usage("An onboarding request is already in flight; it was not sent again.")
    }
    defer { gate.end() }
    let spinner = Spinner(output: service.context.output)
    spinner.start("Completing onboarding…")
    defer { spinner.stop() }
    return try await service.asOwner {
      try await service.client().completeOnboarding(body: .json(.init(payload))).ok.body.json
    }
  }
}

extension Components.Schemas.OnboardingCompleteRequest {
  /// The request body from checked onboarding values: brokerage fields only when the
  /// brokerage view model has them, invites only when there are some.
  init(_ payload: OnboardingPayload) {
    self.init(
      firstName: payload.firstName, lastName: payload.lastName, workspaceName: payload.workspaceName,
      industry: .init(rawValue: payload.industry.rawValue), referralCode: payload.referralCode,
      useCase: .init(rawValue: payload.useCase.rawValue),
      inviteEmails: payload.inviteEmails.isEmpty ? nil : payload.inviteEmails, brokerage: payload.brokerage,
      brokerageId: payload.brokerageId)
  }
}
