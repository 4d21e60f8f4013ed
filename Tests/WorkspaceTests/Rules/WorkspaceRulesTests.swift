import BrokerageRules
import Foundation
import Testing
import WorkspaceRules

let now = Date(timeIntervalSince1970: 1_800_000_000)

func membership(
  _ role: WorkspaceRole, _ status: SubscriptionStatus, trialEndsAt: Date? = nil, onboarded: Bool = true
) -> PrimaryMembership {
  PrimaryMembership(
    role: role, workspaceName: "Acme", subscriptionStatus: status, trialEndsAt: trialEndsAt,
    onboardingCompleted: onboarded)
}

@Suite("Access (sections 1 and 6)")
struct AccessTests {
  @Test func subscriptionRule() {
    #expect(SubscriptionStatus.active.grantsAccess(trialEndsAt: nil, now: now))
    #expect(SubscriptionStatus.trialing.grantsAccess(trialEndsAt: nil, now: now), "a trial with no end")
    #expect(SubscriptionStatus.trialing.grantsAccess(trialEndsAt: now.addingTimeInterval(60), now: now))
    #expect(!SubscriptionStatus.trialing.grantsAccess(trialEndsAt: now, now: now), "trial_ends_at > now(), strictly")
    #expect(!SubscriptionStatus.trialing.grantsAccess(trialEndsAt: now.addingTimeInterval(-1), now: now))
    #expect(!SubscriptionStatus.inactive.grantsAccess(trialEndsAt: nil, now: now))
    #expect(!SubscriptionStatus.pastDue.grantsAccess(trialEndsAt: nil, now: now))
    #expect(SubscriptionStatus(rawValue: "past_due") == .pastDue)
  }

  @Test func noWorkspace() {
    #expect(
      AccessState.compute(nil, now: now)
        == AccessState(role: nil, workspaceName: nil, hasAccess: false, reason: .noWorkspace))
  }

  @Test func ownerNeedsOnboardingAndSubscription() {
    #expect(AccessState.compute(membership(.owner, .active), now: now).hasAccess)
    let notOnboarded = AccessState.compute(membership(.owner, .active, onboarded: false), now: now)
    #expect(!notOnboarded.hasAccess && notOnboarded.reason == nil)
    let inactive = AccessState.compute(membership(.owner, .inactive), now: now)
    #expect(!inactive.hasAccess && inactive.reason == nil, "owners get no reason")
    #expect(inactive.role == .owner && inactive.workspaceName == "Acme")
  }

  @Test(arguments: [WorkspaceRole.member, .admin])
  func membersOfAnInactiveWorkspace(_ role: WorkspaceRole) {
    #expect(
      AccessState.compute(membership(role, .inactive, onboarded: false), now: now)
        == AccessState(role: role, workspaceName: "Acme", hasAccess: false, reason: .memberInactive))
    #expect(AccessState.compute(membership(role, .active, onboarded: false), now: now).hasAccess, "no onboarding step")
    #expect(!AccessState.compute(membership(role, .pastDue), now: now).hasAccess)
  }

  @Test func trialExpiry() {
    let future = membership(.member, .trialing, trialEndsAt: now.addingTimeInterval(3600))
    let past = membership(.member, .trialing, trialEndsAt: now.addingTimeInterval(-3600))
    #expect(AccessState.compute(future, now: now).hasAccess)
    #expect(AccessState.compute(past, now: now).reason == .memberInactive)
    #expect(
      AccessState.compute(membership(.owner, .trialing, trialEndsAt: now.addingTimeInterval(3600)), now: now).hasAccess)
    #expect(
      !AccessState.compute(membership(.owner, .trialing, trialEndsAt: now.addingTimeInterval(-1)), now: now).hasAccess)
  }
}

@Suite("Post-auth gate and routes (sections 2, 4 and 6)")
struct RouteTests {
  @Test func gate() {
    #expect(
      WorkspaceRules.gate(inviteToken: "abc", membership: membership(.owner, .active), now: now).redirect == "join")
    #expect(WorkspaceRules.gate(inviteToken: "abc", membership: nil, now: now).path == "/join?token=abc")
    #expect(WorkspaceRules.gate(inviteToken: "  ", membership: nil, now: now) == .onboarding, "a blank token is none")
    #expect(WorkspaceRules.gate(inviteToken: nil, membership: nil, now: now) == .onboarding, "no workspace")
    #expect(
      WorkspaceRules.gate(inviteToken: nil, membership: membership(.owner, .active, onboarded: false), now: now)
        == .onboarding)
    #expect(WorkspaceRules.gate(inviteToken: nil, membership: membership(.owner, .inactive), now: now) == .subscribe)
    #expect(WorkspaceRules.gate(inviteToken: nil, membership: membership(.owner, .active), now: now) == .dashboard)
    #expect(
      WorkspaceRules.gate(inviteToken: nil, membership: membership(.member, .inactive, onboarded: false), now: now)
        == .subscribeMemberInactive)
    #expect(
      WorkspaceRules.gate(inviteToken: nil, membership: membership(.admin, .active, onboarded: false), now: now)
        == .dashboard)
    #expect(GateRedirect.subscribeMemberInactive.path == "/subscribe?reason=member-inactive")
    #expect(GateRedirect.dashboard.path == "/home")
  }

  @Test func routesFromRedirects() {
    #expect(Route(redirect: "login", path: "/login") == .login)
    #expect(Route(redirect: "join", path: "/join?token=t0k") == .join(token: "t0k"))
    #expect(Route(redirect: "onboarding", path: "/onboarding") == .onboarding)
    #expect(Route(redirect: "subscribe", path: "/subscribe") == .subscribe)
    #expect(Route(redirect: "subscribe", path: "/subscribe?reason=member-inactive") == .subscribeMemberInactive)
    #expect(Route(redirect: "contact-owner", path: "/contact-owner") == .subscribeMemberInactive)
    #expect(Route(redirect: "dashboard", path: "/home") == .dashboard)
    #expect(Route(redirect: "something-new", path: "/home") == .dashboard, "unknown values fall back to the path")
    #expect(Route(redirect: "something-new", path: "/elsewhere") == nil)
  }

  @Test func routeNames() {
    let names = [Route.login, .join(token: nil), .onboarding, .subscribe, .subscribeMemberInactive, .dashboard].map(
      \.name)
    #expect(names == ["login", "join", "onboarding", "subscribe", "subscribe (member-inactive)", "dashboard"])
  }

  @Test func routesFromPaths() {
    #expect(Route(path: "/subscribe") == .subscribe)
    #expect(Route(path: "/home") == .dashboard)
    #expect(Route(path: "/subscribe?reason=member-inactive") == .subscribeMemberInactive)
    #expect(Route(path: "/onboarding") == .onboarding)
    #expect(Route(path: "/nowhere") == nil)
  }

  @Test func gateAnswersMapBackToTheirRoutes() {
    let cases: [(GateRedirect, Route)] = [
      (.login, .login), (.onboarding, .onboarding), (.subscribe, .subscribe),
      (.subscribeMemberInactive, .subscribeMemberInactive), (.dashboard, .dashboard),
      (.join(token: "a b"), .join(token: "a b")),
    ]
    for (gate, route) in cases { #expect(Route(redirect: gate.redirect, path: gate.path) == route) }
  }
}

@Suite("Invite links (section 5)")
struct InviteLinkTests {
  @Test func tokens() {
    #expect(InviteLink.token(from: "abc_DEF-123") == "abc_DEF-123")
    #expect(InviteLink.token(from: "  abc  ") == "abc")
    #expect(InviteLink.token(from: "https://flyrpro.app/join?token=abc") == "abc")
    #expect(InviteLink.token(from: "http://127.0.0.1:8787/join?token=a%2Bb&x=1") == "a+b")
    #expect(InviteLink.token(from: "yourapp://join?token=xyz") == "xyz")
    #expect(InviteLink.token(from: "yourapp://join/xyz") == "xyz")
    #expect(InviteLink.token(from: "/join/xyz") == "xyz")
    #expect(InviteLink.token(from: "/join?token=xyz") == "xyz")
    #expect(InviteLink.token(from: "https://flyrpro.app/join") == nil)
    #expect(InviteLink.token(from: "https://flyrpro.app/join?token=") == nil)
    #expect(InviteLink.token(from: "") == nil)
    #expect(InviteLink.token(from: "two words") == nil)
    #expect(InviteLink.joinPath(token: "abc") == "/join?token=abc")
  }

  @Test func emailMatch() {
    #expect(EmailRules.matches(" Bob@Example.COM ", "bob@example.com"))
    #expect(!EmailRules.matches("bob@example.com", "rob@example.com"))
    #expect(EmailRules.isValid("a@b.co"))
    for bad in ["", "a", "a@b", "@b.co", "a@.co", "a@b.", "a b@c.de", "a@b@c.de", "a@b..co"] {
      #expect(!EmailRules.isValid(bad), "\(bad)")
    }
  }
}

@Suite("Checkout choice (section 3)")
struct CheckoutChoiceTests {
  @Test func choices() throws {
    #expect(try CheckoutChoice.make(plan: .annual, currency: .usd, priceID: nil) == .plan(.annual, .usd))
    #expect(try CheckoutChoice.make(plan: nil, currency: nil, priceID: " price_1 ") == .priceID("price_1"))
    #expect(throws: CheckoutChoice.Problem.nothingChosen) {
      try CheckoutChoice.make(plan: nil, currency: nil, priceID: nil)
    }
    #expect(throws: CheckoutChoice.Problem.planWithoutCurrency) {
      try CheckoutChoice.make(plan: .monthly, currency: nil, priceID: nil)
    }
    #expect(throws: CheckoutChoice.Problem.currencyWithoutPlan) {
      try CheckoutChoice.make(plan: nil, currency: .cad, priceID: nil)
    }
    #expect(throws: CheckoutChoice.Problem.both) { try CheckoutChoice.make(plan: .annual, currency: nil, priceID: "p") }
    #expect(throws: CheckoutChoice.Problem.emptyPriceID) {
      try CheckoutChoice.make(plan: nil, currency: nil, priceID: " ")
    }
    #expect(Currency(matching: "cad") == .cad)
    #expect(Currency(matching: "EUR") == nil)
  }
}

@Suite("Onboarding input and payload (section 3; brokerage spec sections 3, 7 and 10)")
struct OnboardingTests {
  let complete = OnboardingFlags(
    firstName: "Ada", lastName: "Lovelace", workspaceName: "  Ada   Realty ", industry: "real estate", useCase: .solo)

  @Test func industryIsMatchedWithoutCaseAndSentCanonical() throws {
    var flags = complete
    flags.industry = "PEST-control"
    let payload = try OnboardingRules.draft(from: flags).payload()
    #expect(payload.industry == .pestControl)
    #expect(payload.industry.rawValue == "Pest Control")
    #expect(payload.workspaceName == "Ada Realty")
    flags.industry = "Farming"
    #expect(throws: OnboardingProblem.unknownIndustry("Farming")) { try OnboardingRules.draft(from: flags) }
  }

  /// QA matrix row 1: outside Real Estate the payload has no brokerage fields, and brokerage
  /// flags are refused.
  @Test func nonRealEstateHasNoBrokerage() throws {
    var flags = complete
    flags.industry = "Logistics"
    let payload = try OnboardingRules.draft(from: flags).payload()
    #expect(payload.brokerage == nil && payload.brokerageId == nil)
    flags.brokerage = "RE/MAX"
    #expect(throws: OnboardingProblem.brokerageOutsideRealEstate(.logistics)) { try OnboardingRules.draft(from: flags) }
    flags.brokerage = nil
    flags.brokerageID = "215f4705-0609-57fe-95ff-38ddb7a676c2"
    #expect(throws: OnboardingProblem.brokerageOutsideRealEstate(.logistics)) { try OnboardingRules.draft(from: flags) }
  }

  /// QA matrix rows 2 and 8: an existing brokerage is sent by id.
  @Test func existingBrokerageByID() throws {
    var flags = complete
    flags.brokerageID = " 215F4705-0609-57FE-95FF-38DDB7A676C2 "
    let payload = try OnboardingRules.draft(from: flags).payload()
    #expect(payload.brokerageId == "215f4705-0609-57fe-95ff-38ddb7a676c2")
    #expect(payload.brokerage == nil)
  }

  /// QA matrix rows 3 and 9: a custom brokerage is sent as sanitized text with no id.
  @Test func customBrokerageAsText() throws {
    var flags = complete
    flags.brokerage = "  Ada's   Own  Realty "
    let payload = try OnboardingRules.draft(from: flags).payload()
    #expect(payload.brokerage == "Ada's Own Realty")
    #expect(payload.brokerageId == nil)
  }

  @Test func brokerageFlagRules() {
    var flags = complete
    flags.brokerage = "X"
    flags.brokerageID = "215f4705-0609-57fe-95ff-38ddb7a676c2"
    #expect(throws: OnboardingProblem.brokerageAndBrokerageID) { try OnboardingRules.draft(from: flags) }
    flags.brokerage = nil
    flags.brokerageID = "not-a-uuid"
    #expect(throws: OnboardingProblem.invalidBrokerageID("not-a-uuid")) { try OnboardingRules.draft(from: flags) }
    flags.brokerageID = nil
    flags.brokerage = "   "
    #expect(throws: OnboardingProblem.emptyBrokerage) { try OnboardingRules.draft(from: flags) }
  }

  @Test func brokerageFlagsImplyRealEstate() throws {
    var flags = complete
    flags.industry = nil
    flags.brokerage = "Compass"
    let draft = try OnboardingRules.draft(from: flags)
    #expect(draft.industry == .realEstate)
    #expect(try draft.payload().brokerage == "Compass")
  }

  @Test func invitesImplyTeam() throws {
    var flags = complete
    flags.useCase = nil
    flags.invites = [" Bob@Example.com", "carol@example.com,bob@example.com"]
    let payload = try OnboardingRules.draft(from: flags).payload()
    #expect(payload.useCase == .team)
    #expect(payload.inviteEmails == ["bob@example.com", "carol@example.com"])
    flags.useCase = .solo
    #expect(throws: OnboardingProblem.invitesNeedTeam) { try OnboardingRules.draft(from: flags) }
    flags.useCase = .team
    flags.invites = ["not-an-email"]
    #expect(throws: OnboardingProblem.invalidEmail("not-an-email")) { try OnboardingRules.draft(from: flags) }
  }

  @Test func missingFieldsInStepOrder() throws {
    let draft = try OnboardingRules.draft(from: OnboardingFlags(workspaceName: "W"))
    #expect(draft.missing == [.firstName, .lastName, .useCase, .industry])
    #expect(throws: OnboardingProblem.missing([.firstName, .lastName, .useCase, .industry])) { try draft.payload() }
    #expect(
      OnboardingProblem.missing(draft.missing).message == "Missing --first-name, --last-name, --use-case, --industry.")
    var empty = complete
    empty.firstName = "  "
    #expect(try OnboardingRules.draft(from: empty).missing == [.firstName])
  }

  /// QA matrix rows 4 and 5: leaving Real Estate clears the brokerage; coming back is clean.
  @Test func industryChangesClearTheBrokerage() throws {
    var flags = complete
    flags.brokerageID = "215f4705-0609-57fe-95ff-38ddb7a676c2"
    var draft = try OnboardingRules.draft(from: flags)
    draft.setIndustry(.solar)
    #expect(try draft.payload().brokerageId == nil)
    draft.setIndustry(.realEstate)
    #expect(draft.brokerage.brokerageText.isEmpty && draft.brokerage.selectedBrokerageId == nil)
    #expect(try draft.payload().brokerage == nil)
  }

  /// The wizard's path: typing after a selection clears the id (brokerage spec, section 9).
  @Test func typeaheadSelectionThenEdit() throws {
    var draft = try OnboardingRules.draft(from: complete)
    let item = BrokerageSuggestion(id: "215f4705-0609-57fe-95ff-38ddb7a676c2", name: "Keller Williams Realty")
    let query = draft.brokerage.onBrokerageTextChanged("keller")
    draft.brokerage.onSearchResults([item], for: try #require(query))
    #expect(draft.brokerage.showsAddNew)
    #expect(draft.brokerage.addNewLabel == "Add \"keller\" as new brokerage")
    draft.brokerage.onSelectSuggestion(item)
    #expect(try draft.payload().brokerageId == item.id)
    draft.brokerage.onBrokerageTextChanged("Keller Williams Realtyx")
    let payload = try draft.payload()
    #expect(payload.brokerageId == nil && payload.brokerage == "Keller Williams Realtyx")
  }

  @Test func invitesOnlyForTeam() throws {
    var draft = try OnboardingRules.draft(from: complete)
    try draft.addInvites(["bob@example.com"])
    #expect(try draft.payload().inviteEmails.isEmpty, "solo sends no invites")
    draft.useCase = .team
    #expect(try draft.payload().inviteEmails == ["bob@example.com"])
  }

  @Test func summary() throws {
    var flags = complete
    flags.brokerage = "Ada Realty Group"
    flags.invites = ["bob@example.com"]
    flags.useCase = nil
    let rows = try OnboardingRules.draft(from: flags).summary
    #expect(rows.map(\.0) == ["Name", "Use case", "Workspace", "Industry", "Brokerage", "Invites", "Referral code"])
    #expect(rows.first { $0.0 == "Brokerage" }?.1 == "Ada Realty Group (new)")
    #expect(rows.first { $0.0 == "Invites" }?.1 == "bob@example.com")
  }
}
