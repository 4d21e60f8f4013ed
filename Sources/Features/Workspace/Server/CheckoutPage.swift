import DeckValues
import Foundation
import Hummingbird
internal import SQLKit
import SandboxKit

/// The sandbox's hosted checkout page, standing in for Stripe Checkout: GET shows the plan and
/// a Pay button; POST (the button) completes the session and marks the workspace `active`, as
/// the Stripe webhook does after a payment.
enum CheckoutPage {
  static let prefix = "/__sandbox/checkout"

  static func path(session: String) -> String { "\(prefix)/\(session)" }

  static func register(on router: SandboxRouteGroup, state: SandboxState) {
    router.get("\(prefix)/:session") { _, context -> Response in
      let id = try context.parameters.require("session")
      guard let session = try await state.database.read({ db in try await CheckoutSession.fetch(db, id: id) }) else {
        return HTMLPage.response(
          status: .notFound, title: "Checkout not found", body: "<p>No such checkout session.</p>")
      }
      return HTMLPage.response(title: "FLYR checkout", body: page(session))
    }
    router.post("\(prefix)/:session") { _, context -> Response in
      let id = try context.parameters.require("session")
      let session = try await state.database.write { db -> CheckoutSession? in
        guard let session = try await CheckoutSession.fetch(db, id: id) else { return nil }
        guard session.status == "open" else { return session }
        let now = WorkspaceTime.now()
        // Completed once: the read above and this update are one write transaction, and the
        // update only takes an open session, so of two Pays racing one marks the workspace.
        let completed = try await db.fetchOne(
          """
          UPDATE checkout_sessions SET status = 'complete', completed_at = ?
          WHERE id = ? AND status = 'open' RETURNING id
          """,
          [now, id])
        guard completed != nil else { return try await CheckoutSession.fetch(db, id: id) }
        try await db.execute(
          """
          UPDATE workspaces SET subscription_status = 'active', trial_ends_at = NULL, updated_at = ? WHERE id = ?
          """,
          [now, session.workspaceID])
        return try await CheckoutSession.fetch(db, id: id)
      }
      guard let session else {
        return HTMLPage.response(
          status: .notFound, title: "Checkout not found", body: "<p>No such checkout session.</p>")
      }
      return HTMLPage.response(
        title: "Payment complete",
        body: """
          <h1>Payment complete</h1>
          <p>\(MarkupText.escape(session.workspaceName)) is now subscribed (\(MarkupText.escape(session.priceLabel))).</p>
          <p>You can close this page.</p>
          """)
    }
  }

  static func page(_ session: CheckoutSession) -> String {
    let form =
      session.status == "open"
      ? """
      <form method="post" action="\(path(session: session.id))">
        <button type="submit">Pay \(MarkupText.escape(session.priceLabel))</button>
      </form>
      """
      : "<p>This checkout is complete.</p>"
    return """
      <h1>Subscribe to FLYR Pro</h1>
      <p>Workspace: <strong>\(MarkupText.escape(session.workspaceName))</strong></p>
      <p>Plan: \(MarkupText.escape(session.priceLabel)) (\(MarkupText.escape(session.priceID)))</p>
      \(form)
      <p><small>deck sandbox: no card is charged.</small></p>
      """
  }
}

/// A checkout session with what its page shows.
struct CheckoutSession: Sendable, Decodable {
  var id: String
  var workspaceID: String
  var workspaceName: String
  var priceID: String
  var status: String

  /// Its columns' names, in camel case (``SQLRow/decode(_:)``).
  private enum CodingKeys: String, CodingKey {
    case id, workspaceName, status
    case workspaceID = "workspaceId"
    case priceID = "priceId"
  }

  var priceLabel: String { SandboxPrices.price(id: priceID)?.label ?? priceID }

  static func fetch(_ db: any SQLDatabase, id: String) async throws -> CheckoutSession? {
    try await db.fetchOne(
      CheckoutSession.self,
      """
      SELECT c.id, c.workspace_id, c.price_id, c.status, w.name AS workspace_name
      FROM checkout_sessions c JOIN workspaces w ON w.id = c.workspace_id WHERE c.id = ?
      """,
      [id])
  }
}

/// The page a join link opens on the sandbox: which workspace invites whom, and how to accept.
enum JoinPage {
  static func register(on router: SandboxRouteGroup, state: SandboxState) {
    router.get("/join") { request, _ -> Response in
      let token = request.uri.queryParameters.get("token") ?? ""
      let result = try await state.database.read { db -> (WorkspaceHandlers.InviteCheck, String?) in
        let check = try await WorkspaceHandlers.check(db, token: token, now: Date())
        guard case .usable(let invite) = check else { return (check, nil) }
        return (check, try await WorkspaceRecord.fetch(db, id: invite.workspaceID)?.name)
      }
      switch result {
      case (.usable(let invite), let name):
        return HTMLPage.response(
          title: "Join \(name ?? "a workspace")",
          body: """
            <h1>Join \(MarkupText.escape(name ?? "a workspace"))</h1>
            <p>This invite is for <strong>\(MarkupText.escape(invite.email))</strong> as a \(invite.role).</p>
            <p>Sign in with that email, then accept it with deck:</p>
            <pre>deck workspace invite accept '&lt;this page's URL&gt;'</pre>
            """)
      case (.used, _):
        return HTMLPage.response(status: .badRequest, title: "Invite", body: "<p>This invite has already been used</p>")
      case (.expired, _):
        return HTMLPage.response(status: .badRequest, title: "Invite", body: "<p>This invite has expired</p>")
      case (.notFound, _):
        return HTMLPage.response(status: .notFound, title: "Invite", body: "<p>Invalid or expired invite</p>")
      }
    }
  }
}

enum HTMLPage {
  static func response(status: HTTPResponse.Status = .ok, title: String, body: String) -> Response {
    let html = """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <link rel="icon" href="data:,">
      <title>\(MarkupText.escape(title))</title>
      <style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
      button{font-size:1.1rem;padding:.6rem 1.4rem}</style></head>
      <body>
      \(body)
      </body></html>
      """
    return Response(
      status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
      body: .init(byteBuffer: ByteBuffer(string: html)))
  }
}
