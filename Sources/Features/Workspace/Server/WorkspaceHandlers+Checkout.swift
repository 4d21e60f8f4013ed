import Foundation
internal import SQLKit
import SandboxKit
import WorkspaceAPI
import WorkspaceRules

/// `POST /api/billing/stripe/checkout`: creates a checkout session and answers the URL of the
/// sandbox's hosted checkout page (`CheckoutPage`), whose Pay button does what the Stripe
/// webhook does after a payment.
extension WorkspaceHandlers {
  static let invalidPrice = "Valid price ID required"

  func createCheckoutSession(_ input: Operations.createCheckoutSession.Input) async throws
    -> Operations.createCheckoutSession.Output
  {
    let user = try await state.requireBearerUser(orThrow: Self.unauthorized)
    guard case .json(let request) = input.body else { throw SandboxAPIError.internalError }
    @Sendable func badRequest(_ message: String) -> Operations.createCheckoutSession.Output {
      .badRequest(.init(body: .json(.init(error: message))))
    }
    guard
      let price = SandboxPrices.resolveStrictly(
        plan: request.plan?.rawValue, currency: request.currency?.rawValue, priceID: request.priceId?.rawValue)
    else { return badRequest(Self.invalidPrice) }
    let origin = state.linkBase
    return try await state.database.write { db -> Operations.createCheckoutSession.Output in
      guard let workspace = try await WorkspaceMemberships.owned(db, userID: user.id) else {
        return badRequest("No workspace found")
      }
      let id = "cs_test_" + WorkspaceInvites.newToken()
      try await db.execute(
        """
        INSERT INTO checkout_sessions (id, workspace_id, user_id, price_id, status, created_at)
        VALUES (?, ?, ?, ?, 'open', ?)
        """,
        [id, workspace.id, user.id, price.id, WorkspaceTime.now()])
      return .ok(.init(body: .json(.init(url: origin + CheckoutPage.path(session: id)))))
    }
  }
}

/// The sandbox's allow-listed prices.
enum SandboxPrices {
  struct Price: Sendable, Equatable {
    var id: String
    var plan: Plan
    var currency: Currency
    /// In cents.
    var amount: Int

    var label: String {
      let major = amount / 100
      let minor = String(format: "%02d", amount % 100)
      return "\(currency.rawValue) \(major).\(minor) / \(plan == .annual ? "year" : "month")"
    }
  }

  static let all: [Price] = [
    Price(id: "price_flyr_pro_annual_usd", plan: .annual, currency: .usd, amount: 49_000),
    Price(id: "price_flyr_pro_monthly_usd", plan: .monthly, currency: .usd, amount: 4_900),
    Price(id: "price_flyr_pro_annual_cad", plan: .annual, currency: .cad, amount: 65_000),
    Price(id: "price_flyr_pro_monthly_cad", plan: .monthly, currency: .cad, amount: 6_500),
  ]

  /// An allow-listed `priceId`, else the price of `plan` + `currency` (exact values, as sent).
  static func resolve(plan: String?, currency: String?, priceID: String?) -> Price? {
    if let priceID, !priceID.isEmpty { return all.first { $0.id == priceID } }
    guard let plan = plan.flatMap(Plan.init(rawValue:)), let currency = currency.flatMap(Currency.init(rawValue:))
    else { return nil }
    return all.first { $0.plan == plan && $0.currency == currency }
  }

  static func price(id: String) -> Price? { all.first { $0.id == id } }

  /// As the document states it: every field given is valid (plan annual|monthly, currency
  /// USD|CAD, an allow-listed priceId), plan and currency come together, and there is a price.
  static func resolveStrictly(plan: String?, currency: String?, priceID: String?) -> Price? {
    if let plan, Plan(rawValue: plan) == nil { return nil }
    if let currency, Currency(rawValue: currency) == nil { return nil }
    if let priceID, price(id: priceID) == nil { return nil }
    guard (plan == nil) == (currency == nil) else { return nil }
    return resolve(plan: plan, currency: currency, priceID: priceID)
  }
}
