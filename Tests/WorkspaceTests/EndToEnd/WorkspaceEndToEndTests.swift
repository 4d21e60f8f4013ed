import Foundation
import TestSupport
import Testing

/// The workspace flows of workspace-onboarding.md section 7 (and the brokerage QA matrix rows
/// about submission), through the real binary against `deck sandbox serve`. Stored state is
/// checked with `deck sandbox inspect workspace` only.
@Suite("deck workspace, against deck sandbox serve", .endToEndTimeLimit)
struct WorkspaceEndToEndTests {
  /// Section 1, "New user trigger": what signup creates.
  @Test func signupCreatesAnInactiveWorkspaceToOnboard() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    #expect(try deck.route() == "login", "not signed in")
    try deck.signUp("new@example.com")
    let workspace = try deck.inspect("new@example.com")
    #expect(workspace["name"] as? String == "My Workspace")
    #expect(workspace["subscription_status"] as? String == "inactive")
    #expect(workspace["onboarding_completed_at"] is NSNull)
    #expect(workspace["trial_ends_at"] is NSNull)
    let members = try #require(workspace["members"] as? [[String: Any]])
    #expect(members.count == 1)
    #expect(members.first?["email"] as? String == "new@example.com")
    #expect(members.first?["role"] as? String == "owner")
    #expect(members.first?["weekly_door_goal"] as? Int == 100)
    let access = try deck.access()
    #expect(access["role"] as? String == "owner")
    #expect(access["workspaceName"] as? String == "My Workspace")
    #expect(access["hasAccess"] as? Bool == false)
    #expect(access["reason"] == nil)
  }

  /// Test 1: new owner, existing brokerage picked by id, subscribe, pay, wait, dashboard.
  @Test func newOwnerOnboardsSubscribesAndReachesTheDashboard() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try deck.signUp("owner1@example.com")
    #expect(try deck.route() == "onboarding")

    let kellerID = try deck.brokerageID("Keller Williams Realty")
    let onboard = try deck.onboard(["--brokerage-id", kellerID], industry: "real estate")
    #expect(onboard.status == 0, "\(onboard.stderr)")
    #expect(DeckCLI.field("route", in: onboard.stdout) == "subscribe")
    let workspace = try deck.inspect("owner1@example.com")
    #expect(workspace["name"] as? String == "Ada Realty")
    #expect(workspace["industry"] as? String == "Real Estate", "sent in canonical form")
    #expect(workspace["brokerage_id"] as? String == kellerID)
    #expect(workspace["brokerage_name"] is NSNull)
    #expect(workspace["onboarding_completed_at"] is String)
    #expect(try deck.route() == "subscribe")

    let waiting = try deck.start([
      "workspace", "subscribe", "--plan", "annual", "--currency", "usd", "--wait", "--wait-timeout", "60",
    ])
    let url = waiting.firstLine()
    #expect(url.hasPrefix(server.url + "/"), "a URL on the sandbox: \(url)")
    let page = try Browser.request(url)
    #expect(page.status == 200)
    #expect(page.body.contains("Pay USD 490.00 / year"))
    #expect(page.body.contains("Ada Realty"))
    #expect(try deck.access()["hasAccess"] as? Bool == false, "not before paying")
    let paid = try Browser.request(url, method: "POST")
    #expect(paid.status == 200)
    #expect(paid.body.contains("Payment complete"))
    let finished = waiting.wait()
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(finished.stderr.contains("Subscription active"))

    #expect(try deck.route() == "dashboard")
    #expect(try deck.access()["hasAccess"] as? Bool == true)
    #expect(try deck.inspect("owner1@example.com")["subscription_status"] as? String == "active")
    let again = try deck.run(["workspace", "subscribe", "--plan", "monthly", "--currency", "USD"])
    #expect(again.status == 0)
    #expect(again.stderr.contains("already has access"))
  }

  /// Test 2 (and QA rows 3 and 9): a custom brokerage is stored as brokerage_name, no id.
  @Test func customBrokerageIsStoredByName() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try deck.signUp("owner2@example.com")
    let result = try deck.onboard(["--brokerage", "  Ada's   Own Realty ", "--trace=body"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains(#""brokerage" : "Ada's Own Realty""#), "sanitized: \(result.stderr)")
    #expect(!result.stderr.contains("brokerageId"))
    let workspace = try deck.inspect("owner2@example.com")
    #expect(workspace["brokerage_name"] as? String == "Ada's Own Realty")
    #expect(workspace["brokerage_id"] is NSNull)

    let unpaid = try deck.run([
      "workspace", "subscribe", "--plan", "monthly", "--currency", "CAD", "--wait", "--wait-timeout", "1.5",
    ])
    #expect(unpaid.status == 1)
    #expect(unpaid.stdout.hasPrefix(server.url + "/__sandbox/checkout/cs_test_"), "the URL is printed first")
    #expect(unpaid.stderr.contains("Timed out after 1.5 s: the workspace has no access yet."))
  }

  /// Test 3: the exact name typed (not picked) is sent as text; the sandbox resolves it.
  @Test func typedExactNameResolvesToTheCanonicalID() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try deck.signUp("owner3@example.com")
    let result = try deck.onboard(["--brokerage", "  keller   williams REALTY ", "--trace=body"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains(#""brokerage" : "keller williams REALTY""#), "the text alone: \(result.stderr)")
    #expect(!result.stderr.contains("brokerageId"))
    let workspace = try deck.inspect("owner3@example.com")
    #expect(workspace["brokerage_id"] as? String == (try deck.brokerageID("Keller Williams Realty")))
    #expect(workspace["brokerage_name"] is NSNull)
  }

  /// Test 4: team onboarding, the outbox, and the invitee's join flow.
  @Test func teamInviteeJoinsAndWaitsForTheOwnerToPay() throws {
    let server = try SandboxProcess()
    let owner = try DeckCLI(server: server)
    try owner.signUp("boss@example.com")
    let onboard = try owner.onboard(
      ["--invite", "Bob@Example.com", "--invite", "carol@example.com"], industry: "Solar", useCase: nil)
    #expect(onboard.status == 0, "\(onboard.stderr)")
    let workspace = try owner.inspect("boss@example.com")
    let invites = try #require(workspace["invites"] as? [[String: Any]])
    #expect(invites.map { $0["email"] as? String } == ["bob@example.com", "carol@example.com"])
    #expect(invites.allSatisfy { $0["role"] as? String == "member" && $0["status"] as? String == "pending" })
    let outbox = try owner.run(["sandbox", "outbox"])
    #expect(outbox.stdout.contains("bob@example.com") && outbox.stdout.contains("/join?token="))
    let link = try #require(try owner.joinLinks(to: " BOB@example.com ").first)
    #expect(link.hasPrefix(server.url + "/join?token="))
    #expect(try owner.joinLinks(to: "carol@example.com").count == 1)
    #expect(try Browser.request(link).body.contains("bob@example.com"), "the join page")

    let bob = try DeckCLI(server: server)
    let validate = try bob.run(["workspace", "invite", "validate", link, "--json"])
    #expect(validate.status == 0, "validate needs no sign-in: \(validate.stderr)")
    let valid = try #require(try json(validate.stdout) as? [String: Any])
    #expect(valid["valid"] as? Bool == true)
    #expect(valid["workspaceName"] as? String == "Ada Realty")
    #expect(valid["email"] as? String == "bob@example.com")
    #expect(valid["role"] as? String == "member")

    #expect(validate.stderr.isEmpty, "--json prints the data alone")
    #expect(try bob.run(["workspace", "invite", "validate", link]).stderr.contains("Sign in as bob@example.com"))

    try bob.signUp("bob@example.com")
    let signedIn = try bob.run(["workspace", "invite", "validate", link])
    #expect(signedIn.stderr.contains("You are signed in as bob@example.com: accept it with"), "\(signedIn.stderr)")
    #expect(!signedIn.stderr.contains("Sign in as"), "no sign-in for the invitee already signed in")
    #expect(try bob.route(["--invite", link]) == "join")
    let noWorkspace = try bob.access()
    #expect(noWorkspace["reason"] as? String == "no_workspace")
    #expect(noWorkspace["role"] is NSNull)
    let accept = try bob.run(["workspace", "invite", "accept", link])
    #expect(accept.status == 0, "\(accept.stderr)")
    #expect(accept.stderr.contains("Joined workspace Ada Realty."), "the name, not the id: \(accept.stderr)")
    #expect(DeckCLI.field("route", in: accept.stdout) == "subscribe (member-inactive)")
    #expect(DeckCLI.field("path", in: accept.stdout) == "/subscribe?reason=member-inactive")
    #expect(try bob.route() == "subscribe (member-inactive)")
    let inactive = try bob.access()
    #expect(inactive["role"] as? String == "member")
    #expect(inactive["reason"] as? String == "member-inactive")
    let memberSubscribe = try bob.run(["workspace", "subscribe", "--plan", "annual", "--currency", "USD"])
    #expect(memberSubscribe.status == 77)
    #expect(memberSubscribe.stderr.contains("Contact your workspace owner"))
    #expect(memberSubscribe.stdout.isEmpty, "no checkout for a member")
    let members = try #require(try owner.inspect("boss@example.com")["members"] as? [[String: Any]])
    #expect(members.map { $0["role"] as? String } == ["owner", "member"])
    #expect(try bob.inspect("bob@example.com")["id"] as? String == workspace["id"] as? String, "primary workspace")

    let checkout = try owner.run(["workspace", "subscribe", "--price-id", "price_flyr_pro_monthly_cad", "--json"])
    #expect(checkout.status == 0, "\(checkout.stderr)")
    let url = try #require((try json(checkout.stdout) as? [String: Any])?["url"] as? String)
    #expect(try Browser.request(url, method: "POST").status == 200)
    #expect(try bob.route() == "dashboard")
    #expect(try bob.access()["hasAccess"] as? Bool == true)
  }

  /// Test 5: the wrong email, a used invite, an expired invite, an unknown token.
  @Test func invitesAreRefusedForAnotherEmailWhenUsedOrExpired() throws {
    let server = try SandboxProcess()
    let owner = try DeckCLI(server: server)
    try owner.signUp("boss@example.com")
    #expect(
      try owner.onboard(["--invite", "carol@example.com", "--invite", "erin@example.com"], useCase: nil).status == 0)
    let carolLink = try #require(try owner.joinLinks(to: "carol@example.com").first)
    let erinLink = try #require(try owner.joinLinks(to: "erin@example.com").first)

    let dave = try DeckCLI(server: server)
    try dave.signUp("dave@example.com")
    let wrong = try dave.run(["workspace", "invite", "accept", carolLink])
    #expect(wrong.status == 77)
    #expect(wrong.stderr.contains("This invite was sent to a different email address"))
    #expect(wrong.stderr.contains("sign in with carol@example.com"))

    let carol = try DeckCLI(server: server)
    try carol.signUp("Carol@Example.com")
    let token = try #require(URLComponents(string: carolLink)?.queryItems?.first?.value)
    let accepted = try carol.run(["workspace", "invite", "accept", token, "--json"])
    #expect(accepted.status == 0, "a bare token works too: \(accepted.stderr)")
    let body = try #require(try json(accepted.stdout) as? [String: Any])
    #expect(body["success"] as? Bool == true && body["redirect"] as? String == "/home")
    // Again, by the member: nothing changes, exit 0, as kiosk pair of the same store.
    let again = try carol.run(["workspace", "invite", "accept", carolLink])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.contains("You are already a member of workspace Ada Realty"), "\(again.stderr)")
    #expect(again.stderr.contains("nothing changed") && !again.stderr.contains("already been used"))
    let againJSON = try carol.run(["workspace", "invite", "accept", carolLink, "--json"])
    let unchanged = try #require(try json(againJSON.stdout) as? [String: Any])
    #expect(
      unchanged["changed"] as? Bool == false && unchanged["workspaceId"] as? String == body["workspaceId"] as? String)
    #expect((try owner.inspect("boss@example.com")["members"] as? [[String: Any]])?.count == 2, "no second membership")
    // From another home, deck cannot tell: the backend's answer stands.
    let elsewhere = try DeckCLI(server: server)
    try elsewhere.logIn("carol@example.com")
    let used = try elsewhere.run(["workspace", "invite", "accept", carolLink])
    #expect(used.status == 65)
    #expect(used.stderr.contains("This invite has already been used"))
    let usedValidate = try owner.run(["workspace", "invite", "validate", carolLink])
    #expect(usedValidate.status == 65)
    #expect(usedValidate.stderr.contains("This invite has already been used"))

    #expect(try owner.run(["sandbox", "trigger", "invite-expiry", erinLink]).status == 0)
    let expired = try owner.run(["workspace", "invite", "validate", erinLink])
    #expect(expired.status == 65)
    #expect(expired.stderr.contains("This invite has expired"))
    let erin = try DeckCLI(server: server)
    try erin.signUp("erin@example.com")
    let expiredAccept = try erin.run(["workspace", "invite", "accept", erinLink])
    #expect(expiredAccept.status == 65)
    #expect(expiredAccept.stderr.contains("This invite has expired"))
    #expect(try erin.route() == "onboarding", "no membership was added")

    let unknown = try erin.run(["workspace", "invite", "validate", "no-such-token"])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("Invalid or expired invite"))
    let notALink = try erin.run(["workspace", "invite", "accept", "https://flyrpro.app/join"])
    #expect(notALink.status == 64)
  }

  /// Test 6: a trial with a future end gives access; a past end gives none.
  @Test func trials() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try deck.signUp("trial@example.com")
    #expect(try deck.onboard([], industry: "HVAC").status == 0)
    let future = try deck.run([
      "sandbox", "trigger", "subscription", "--email", "trial@example.com", "--status", "trialing", "--trial-ends",
      "+2d", "--json",
    ])
    #expect(future.status == 0, "\(future.stderr)")
    let stored = try #require(try json(future.stdout) as? [String: Any])
    #expect(stored["subscription_status"] as? String == "trialing")
    #expect(stored["trial_ends_at"] is String)
    #expect(try deck.access()["hasAccess"] as? Bool == true)
    #expect(try deck.route() == "dashboard")

    let past = try deck.run([
      "sandbox", "trigger", "subscription", "--email", "trial@example.com", "--status", "trialing", "--trial-ends",
      "2020-01-01",
    ])
    #expect(past.status == 0, "\(past.stderr)")
    #expect(try deck.access()["hasAccess"] as? Bool == false)
    #expect(try deck.route() == "subscribe")

    #expect(
      try deck.run(["sandbox", "trigger", "subscription", "--email", "trial@example.com", "--status", "trialing"])
        .status == 0)
    #expect(try deck.access()["hasAccess"] as? Bool == true, "a trial with no end")
    #expect(
      try deck.run(["sandbox", "trigger", "subscription", "--email", "trial@example.com", "--status", "past_due"])
        .status == 0)
    #expect(try deck.access()["hasAccess"] as? Bool == false)
    let refused = try deck.run([
      "sandbox", "trigger", "subscription", "--email", "trial@example.com", "--status", "active", "--trial-ends", "+1d",
    ])
    #expect(refused.status == 64)
  }

  /// Test 7: the brokerage QA matrix rows about submission (1-3, 8-9).
  @Test func brokerageQAMatrix() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)

    // Row 1: outside Real Estate, no brokerage fields are sent (or accepted).
    try deck.signUp("row1@example.com")
    let refused = try deck.onboard(["--brokerage", "RE/MAX", "--trace"], industry: "Logistics")
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("only for the Real Estate industry"))
    #expect(!refused.stderr.contains("/api/onboarding/complete"), "nothing was sent")
    let row1 = try deck.onboard(["--trace=body"], industry: "Logistics")
    #expect(row1.status == 0, "\(row1.stderr)")
    #expect(!row1.stderr.contains("brokerage"))
    let logistics = try deck.inspect("row1@example.com")
    #expect(logistics["industry"] as? String == "Logistics")
    #expect(logistics["brokerage_id"] is NSNull && logistics["brokerage_name"] is NSNull)

    // Rows 2 and 8: an existing selection writes brokerage_id.
    try deck.signUp("row2@example.com")
    let compass = try deck.brokerageID("Compass")
    let row2 = try deck.onboard(["--brokerage-id", compass.uppercased(), "--trace=body"])
    #expect(row2.status == 0, "\(row2.stderr)")
    #expect(row2.stderr.contains(#""brokerageId" : "\#(compass)""#))
    let selected = try deck.inspect("row2@example.com")
    #expect(selected["brokerage_id"] as? String == compass)
    #expect(selected["brokerage_name"] is NSNull)

    // Rows 3 and 9: new text writes brokerage_name.
    try deck.signUp("row3@example.com")
    #expect(try deck.onboard(["--brokerage", "Brand New Brokerage"]).status == 0)
    let custom = try deck.inspect("row3@example.com")
    #expect(custom["brokerage_name"] as? String == "Brand New Brokerage")
    #expect(custom["brokerage_id"] is NSNull)

    // An id that is a UUID but no brokerage's is refused by the server: 404, the brokerage is
    // not found (the contract says so; exit 1).
    try deck.signUp("row2b@example.com")
    let unknown = try deck.onboard(["--brokerage-id", "00000000-0000-4000-8000-000000000000"])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("Brokerage not found"))
  }

  /// Client-side validation: exit 64 before any request.
  @Test func onboardingInputIsCheckedBeforeAnythingIsSent() throws {
    let server = try SandboxProcess()
    let deck = try DeckCLI(server: server)
    try deck.signUp("checks@example.com")
    let cases: [([String], String, String)] = [
      (["--brokerage-id", "not-a-uuid"], "Real Estate", "must be a UUID"),
      (
        ["--brokerage", "X", "--brokerage-id", "215f4705-0609-57fe-95ff-38ddb7a676c2"], "Real Estate",
        "exclude each other"
      ),
      (["--invite", "not-an-email"], "Sales", "not a valid email"),
      (["--invite", "bob@example.com", "--use-case", "solo"], "Sales", "implies --use-case team"),
      ([], "Farming", "invalid for '--industry"),
    ]
    for (extra, industry, message) in cases {
      let solo = extra.contains("--use-case") || extra.contains("--invite") ? nil : "solo"
      let result = try deck.onboard(extra + ["--trace"], industry: industry, useCase: solo)
      #expect(result.status == 64, "\(extra)")
      #expect(result.stderr.contains(message), "\(extra): \(result.stderr)")
      #expect(!result.stderr.contains("POST"), "\(extra): nothing was sent")
    }
    let missing = try deck.run(["workspace", "onboard", "--industry", "sales", "--trace"])
    #expect(missing.status == 64)
    #expect(missing.stderr.contains("Missing --first-name, --last-name, --use-case, --workspace-name."))
    #expect(!missing.stderr.contains("POST"))
    #expect(try deck.inspect("checks@example.com")["onboarding_completed_at"] is NSNull)

    let badPrice = try deck.run(["workspace", "subscribe", "--price-id", "price_free_forever"])
    #expect(badPrice.status == 65)
    #expect(badPrice.stderr.contains("Valid price ID required"))
    #expect(try deck.run(["workspace", "subscribe", "--plan", "annual"]).status == 64)
    #expect(try deck.run(["workspace", "subscribe", "--plan", "weekly", "--currency", "USD"]).status == 64)
  }

  /// A user without an owner workspace cannot onboard or check out (400 "No workspace found"),
  /// and deck says what to do.
  @Test func noWorkspaceFound() throws {
    let server = try SandboxProcess()
    let owner = try DeckCLI(server: server)
    try owner.signUp("boss@example.com")
    #expect(try owner.onboard(["--invite", "zoe@example.com"], useCase: nil).status == 0)
    let zoe = try DeckCLI(server: server)
    try zoe.signUp("zoe@example.com")
    #expect(try zoe.route() == "onboarding", "no workspace: the gate sends to onboarding")
    let access = try zoe.run(["workspace", "access", "--json"])
    #expect(access.stdout.contains(#""role":null"#) && access.stdout.contains(#""workspaceName":null"#))
    let result = try zoe.onboard([])
    #expect(result.status == 65)
    #expect(result.stderr.contains("No workspace found"))
    #expect(result.stderr.contains("owns no workspace") && result.stderr.contains("ask support"))
    let checkout = try zoe.run(["workspace", "subscribe", "--plan", "annual", "--currency", "USD"])
    #expect(checkout.status == 65)
    #expect(checkout.stderr.contains("No workspace found") && checkout.stderr.contains("ask support"))
  }
}
