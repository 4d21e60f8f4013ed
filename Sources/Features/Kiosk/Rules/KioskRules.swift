/// The kiosk spec's pure logic (kiosk-review-flow.md): what each screen accepts, the handoff
/// URL, amounts. The screen state machine is ``KioskState``. No I/O.
public enum KioskRules {
  /// Star ratings: 1 to 5.
  public static let ratings = 1...5

  /// What each screen accepts (its buttons and keys, as `deck kiosk` commands).
  public static func accepted(on screen: KioskScreen) -> [KioskAction] {
    switch screen {
    case .pairing: [.pair]
    case .idle: [.next, .unpair]
    case .rating: [.rate, .cancel]
    case .consent: [.approve, .decline]
    case .handoff: [.done]
    case .thankYou: []
    }
  }

  /// The QR code's content: `{kiosk base URL}/r/{sessionPublicId}` (section 5).
  public static func handoffURL(baseURL: String, sessionPublicId: String) -> String {
    var base = baseURL
    while base.hasSuffix("/") { base.removeLast() }
    return "\(base)/r/\(percentEncodePathSegment(sessionPublicId))"
  }

  /// An amount in minor units with its currency: `$45.99`, `€3.50`, `12.00 CHF`.
  public static func formatAmount(_ minorUnits: Int, currency: String = "USD") -> String {
    let sign = minorUnits < 0 ? "-" : ""
    let value = abs(minorUnits)
    let cents = value % 100
    let number = "\(value / 100).\(cents < 10 ? "0" : "")\(cents)"
    switch currency.uppercased() {
    case "USD": return "\(sign)$\(number)"
    case "EUR": return "\(sign)€\(number)"
    case "GBP": return "\(sign)£\(number)"
    default: return "\(sign)\(number) \(currency.uppercased())"
    }
  }

  /// An order line as shown on the rating screen: `Handmade Scarf`, or `Candle ×2`.
  public static func describe(_ item: KioskOrderItem) -> String {
    item.quantity > 1 ? "\(item.name) ×\(item.quantity)" : item.name
  }

  /// Five stars, the first `rating` filled: `★★★★☆`.
  public static func stars(_ rating: Int) -> String {
    let filled = max(0, min(5, rating))
    return String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled)
  }

  /// A store id as typed: trimmed; nil when empty.
  public static func sanitizeStoreId(_ text: String) -> String? {
    let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
    return trimmed.isEmpty ? nil : String(trimmed)
  }

  static func percentEncodePathSegment(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
        UInt8(ascii: "~"):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let digits = Array("0123456789ABCDEF")
        result += "%\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
      }
    }
    return result
  }
}
