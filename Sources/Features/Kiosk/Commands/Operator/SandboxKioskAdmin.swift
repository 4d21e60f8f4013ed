import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxKioskAPI

/// The kiosk's operator endpoints (/__sandbox/v1/kiosk) of the current environment's sandbox,
/// on the kiosk service's URL. Nothing is sent to an environment that is not a sandbox.
enum SandboxKioskAdmin {
  static func client(_ context: DeckContext) async throws -> SandboxKioskAPI.Client {
    try await SandboxOperator.client(context, service: .kiosk, path: "/__sandbox/v1/kiosk") {
      SandboxKioskAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
    }
  }

  /// A session as the operator commands print it (every key present, nulls included).
  struct SessionView: Encodable {
    var publicId: String
    var storePublicId: String
    var status: String
    @ExplicitNull var starRating: Int?
    @ExplicitNull var generatedReviewText: String?
    var createdAt: String
    var updatedAt: String
    var order: Components.Schemas.Order

    init(_ detail: Components.Schemas.SessionDetail) {
      publicId = detail.publicId
      storePublicId = detail.storePublicId
      status = detail.status.rawValue
      starRating = detail.starRating
      generatedReviewText = detail.generatedReviewText
      createdAt = detail.createdAt
      updatedAt = detail.updatedAt
      order = detail.order
    }
  }

  /// Prints a session: its data, or for a person (after `message`, if any, on stderr) aligned
  /// fields and the order's lines.
  static func show(_ detail: Components.Schemas.SessionDetail, context: DeckContext, message: String? = nil) throws {
    let output = context.output
    try output.emit(SessionView(detail)) {
      if let message { output.info(message) }
      showFields(detail, output: output)
    }
  }

  private static func showFields(_ detail: Components.Schemas.SessionDetail, output: Output) {
    let order = detail.order
    output.fields([
      ("publicId", detail.publicId),
      ("store", detail.storePublicId),
      ("status", detail.status.rawValue),
      ("starRating", detail.starRating.map { "\($0)" } ?? "-"),
      ("generatedReviewText", detail.generatedReviewText ?? "-"),
      ("order", order.publicId),
      ("total", formatAmount(order.totalAmount, currency: order.currency)),
      ("created", detail.createdAt),
      ("updated", detail.updatedAt),
    ])
    output.line()
    output.table(
      ["ITEM", "QTY", "AMOUNT"],
      order.items.map { [$0.name, "\($0.quantity)", formatAmount($0.amount, currency: order.currency)] })
  }

  /// `$45.99` for USD, else `45.99 EUR`.
  static func formatAmount(_ cents: Int, currency: String) -> String {
    let number = String(cents / 100) + "." + NumberText.padded(abs(cents % 100), width: 2, pad: "0")
    return currency.uppercased() == "USD" ? "$" + number : "\(number) \(currency.uppercased())"
  }
}
