import DeckValues
import Foundation
import Hummingbird
import KioskAPI
import KioskRules
package import SQLKit
import SandboxKioskAPI
import SandboxKit

/// The review kiosk's part of the sandbox (kiosk-review-flow.md): stores, orders and review
/// sessions, the KioskAPI contract, its operator endpoints (purchases, inspect) and the mobile
/// landing page the handoff QR code points at.
package enum KioskServer: SandboxFeature {
  package static let name = "kiosk"

  package static func registerMigrations(in migrations: inout SchemaMigrations) {
    KioskSchema.register(in: &migrations)
  }

  package static func seed(_ db: any SQLDatabase, sandbox: SeedContext) async throws {
    try await KioskSeed.seed(db)
  }

  package static func counts(_ db: any SQLDatabase) async throws -> [String: Int] {
    [
      "kiosk stores": try await db.fetchValue(Int.self, "SELECT count(*) FROM kiosk_stores") ?? 0,
      "kiosk sessions": try await db.fetchValue(Int.self, "SELECT count(*) FROM kiosk_review_sessions") ?? 0,
    ]
  }

  package static func registerRoutes(on routes: SandboxRoutes) throws {
    let state = routes.state
    let router = routes.router
    try KioskHandlers(state: state).registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.root, configuration: SandboxRoutes.configuration,
      middlewares: [
        ErrorResponseMiddleware(requestError: KioskHandlers.requestError),
        // `next` answers `{"session": null, "order": null}` when nothing waits, as the spec shows.
        ExplicitNullsMiddleware(["getNextSession": [["session"], ["order"]]]),
      ])
    try KioskAdminHandlers(state: state).registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.operatorURL(Self.self), configuration: SandboxRoutes.configuration,
      middlewares: [
        ErrorResponseMiddleware(requestError: KioskAdminHandlers.requestError),
        RejectNullsMiddleware(
          operations: ["triggerPurchase": ["totalAmount", "items"], "createStore": ["publicId", "name"]],
          error: { KioskAdminHandlers.requestError(operationID: $0, request: $1, status: .badRequest) }),
      ])
    router.get("/r/:sessionPublicId") { _, context -> Response in
      let id = context.parameters.get("sessionPublicId") ?? ""
      let found = try await state.database.read {
        db -> (KioskStore.Session, KioskStore.Store?, KioskStore.Order?)? in
        guard let session = try await KioskStore.session(db, id) else { return nil }
        return (
          session, try await KioskStore.store(db, session.storePublicId),
          try await KioskStore.order(db, session.orderPublicId)
        )
      }
      guard let (session, store, order) = found else {
        return LandingPage.response(
          .notFound, LandingPage.message("Review not found", "This review link does not exist."))
      }
      guard session.status == .approved || session.status == .postedIntent, let text = session.generatedReviewText
      else {
        return LandingPage.response(
          .notFound,
          LandingPage.message("Review not available", "This review has not been approved for posting."))
      }
      return LandingPage.response(
        .ok,
        LandingPage.review(
          text: text, rating: session.starRating ?? 0, storeName: store?.name ?? "the store",
          items: order?.items ?? [], postURL: store?.reviewURL ?? "https://www.google.com/maps"))
    }
  }
}

/// `GET /r/{sessionPublicId}`: the page a customer's phone opens from the handoff QR code,
/// with the review, Copy and Post. Plain HTML, a few lines of script for the clipboard.
enum LandingPage {
  static func response(_ status: HTTPResponse.Status, _ html: String) -> Response {
    Response(
      status: status,
      headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
      body: .init(byteBuffer: ByteBuffer(string: html)))
  }

  static func review(text: String, rating: Int, storeName: String, items: [KioskOrderItem], postURL: String)
    -> String
  {
    let bought = items.map { MarkupText.escape(KioskRules.describe($0)) }.joined(separator: ", ")
    return page(
      title: "Your review of \(storeName)",
      body: """
        <h1>Your review of \(MarkupText.escape(storeName))</h1>
        <p class="stars" role="img" aria-label="\(rating) out of 5 stars">\(KioskRules.stars(rating))</p>
        <blockquote id="review">\(MarkupText.escape(text))</blockquote>
        \(bought.isEmpty ? "" : "<p class=\"bought\">You bought: \(bought)</p>")
        <div class="buttons">
          <button type="button" id="copy" onclick="copyReview()">Copy</button>
          <a class="button primary" id="post" href="\(MarkupText.escape(postURL))" onclick="copyReview()" target="_blank" rel="noopener">Post</a>
        </div>
        <p class="hint" id="status">Tap Post, then paste your review.</p>
        <script>
        function copyReview() {
          var text = document.getElementById("review").textContent;
          var status = document.getElementById("status");
          if (navigator.clipboard) {
            navigator.clipboard.writeText(text).then(function () { status.textContent = "Copied."; });
          } else {
            var range = document.createRange();
            range.selectNodeContents(document.getElementById("review"));
            var selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
            document.execCommand("copy");
            status.textContent = "Copied.";
          }
        }
        </script>
        """)
  }

  static func message(_ title: String, _ text: String) -> String {
    page(title: title, body: "<h1>\(MarkupText.escape(title))</h1>\n<p>\(MarkupText.escape(text))</p>")
  }

  static func page(title: String, body: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="icon" href="data:,">
    <title>\(MarkupText.escape(title))</title>
    <style>
    body { font-family: -apple-system, system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
    h1 { font-size: 1.4rem; }
    .stars { color: #a87b00; font-size: 1.6rem; margin: 0; }
    blockquote { margin: 1rem 0; padding: 1rem; background: #f5f5f5; border-radius: 0.5rem; font-size: 1.1rem; line-height: 1.5; }
    .bought, .hint { color: #666; font-size: 0.9rem; }
    .buttons { display: flex; gap: 0.75rem; }
    button, .button { flex: 1; padding: 0.9rem; font-size: 1.1rem; border-radius: 0.5rem; border: 1px solid #888; background: #fff; color: #222; text-align: center; text-decoration: none; }
    .primary { background: #1a73e8; border-color: #1a73e8; color: #fff; }
    </style>
    </head>
    <body>
    \(body)
    </body>
    </html>

    """
  }
}
