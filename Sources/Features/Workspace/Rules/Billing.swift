/// Subscription plans (section 3, `POST /api/billing/stripe/checkout`).
public enum Plan: String, CaseIterable, Sendable, Codable {
  case annual, monthly
}

/// Checkout currencies.
public enum Currency: String, CaseIterable, Sendable, Codable {
  case usd = "USD"
  case cad = "CAD"

  /// Matches without regard to case: "usd" is `USD`.
  public init?(matching text: String) {
    guard let match = Currency.allCases.first(where: { $0.rawValue == EmailRules.trim(text).uppercased() }) else {
      return nil
    }
    self = match
  }
}

/// What a checkout request names: a plan and a currency, or a price id.
public enum CheckoutChoice: Sendable, Equatable {
  case plan(Plan, Currency)
  case priceID(String)

  public enum Problem: Error, Sendable, Equatable {
    case nothingChosen
    case planWithoutCurrency
    case currencyWithoutPlan
    case both
    case emptyPriceID

    public var message: String {
      switch self {
      case .nothingChosen: "Choose a plan with --plan annual|monthly --currency USD|CAD, or a price with --price-id ID."
      case .planWithoutCurrency: "--plan needs --currency USD|CAD."
      case .currencyWithoutPlan: "--currency needs --plan annual|monthly."
      case .both: "--price-id excludes --plan and --currency: give one or the other."
      case .emptyPriceID: "--price-id is empty."
      }
    }
  }

  /// Either `plan` + `currency`, or `priceId`, never both (section 3).
  public static func make(plan: Plan?, currency: Currency?, priceID: String?) throws(Problem) -> CheckoutChoice {
    let price = priceID.map(EmailRules.trim)
    if let price {
      guard plan == nil, currency == nil else { throw .both }
      guard !price.isEmpty else { throw .emptyPriceID }
      return .priceID(price)
    }
    switch (plan, currency) {
    case (let plan?, let currency?): return .plan(plan, currency)
    case (.some, nil): throw .planWithoutCurrency
    case (nil, .some): throw .currencyWithoutPlan
    case (nil, nil): throw .nothingChosen
    }
  }
}
