import FoundationEssentials

/// The claims deck reads from an access token. deck never verifies the signature (the
/// server does); it reads `exp` to refresh in time, `email` to name the account and the string
/// values of `user_metadata` (the preferences role) to refuse early what the server would refuse.
/// The token is split and its header and payload decoded here (base64url, then JSON): deck
/// needs no signing library for that.
public struct JWTClaims: Sendable, Equatable {
  public var subject: String?
  public var email: String?
  public var expiresAt: Date?
  public var issuedAt: Date?
  /// The string values of the `user_metadata` claim (GoTrue's); other values are left out.
  public var userMetadata: [String: String]

  /// `user_metadata.role` (`athlete` or `parent` for the recruiting service), if the token says.
  public var role: String? { userMetadata["role"] }

  /// Nil when the token is not a JWT whose payload is a JSON object.
  public init?(token: String) {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let header = Self.base64URL(parts[0]), let body = Self.base64URL(parts[1]),
      (try? JSONDecoder().decode(ObjectShape.self, from: header)) != nil,
      let payload = try? JSONDecoder().decode(Payload.self, from: body)
    else { return nil }
    subject = payload.sub?.string
    email = payload.email?.string
    expiresAt = payload.exp.flatMap(Self.date)
    issuedAt = payload.iat.flatMap(Self.date)
    userMetadata = payload.user_metadata?.values.compactMapValues(\.string) ?? [:]
  }

  /// A NumericDate (seconds since 1970), only when it is a plausible one: a token's `exp` of
  /// 1e300 or NaN would otherwise reach date arithmetic and the token file's encoder.
  static func date(_ value: Lenient) -> Date? {
    guard case .number(let seconds) = value, seconds.isFinite, abs(seconds) <= 253_402_300_799 else {
      return nil  // up to year 9999
    }
    return Date(timeIntervalSince1970: seconds)
  }

  /// The bytes of a base64url segment (no padding, as JWTs write it); nil when it is not one.
  static func base64URL(_ segment: Substring) -> Data? {
    guard segment.utf8.count <= 1_000_000 else { return nil }
    var text = String(segment).replacing("-", with: "+").replacing("_", with: "/")
    guard !text.contains("=") else { return nil }
    text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
    return Data(base64Encoded: text)
  }

  /// Any JSON object (a JWT's header must be one), whatever it holds.
  struct ObjectShape: Decodable {
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: Key.self) }
  }

  /// The claims deck reads; any of them may be missing or of another type than expected.
  struct Payload: Decodable {
    var sub: Lenient?
    var email: Lenient?
    var exp: Lenient?
    var iat: Lenient?
    var user_metadata: Metadata?
  }

  /// `user_metadata` when it is a JSON object, else empty (a token is never refused for it).
  struct Metadata: Codable, Sendable {
    var values: [String: Lenient]

    init(from decoder: any Decoder) throws {
      values = (try? decoder.singleValueContainer().decode([String: Lenient].self)) ?? [:]
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(values)
    }
  }

  /// A claim's value as sent: a string, a number, or anything else (which deck ignores).
  enum Lenient: Codable, Sendable {
    case string(String)
    case number(Double)
    case other

    var string: String? {
      if case .string(let text) = self { return text }
      return nil
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        self = .string(text)
      } else if (try? container.decode(Bool.self)) != nil {
        self = .other
      } else if let number = try? container.decode(Double.self) {
        self = .number(number)
      } else {
        self = .other
      }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .string(let text): try container.encode(text)
      case .number(let number): try container.encode(number)
      case .other: try container.encodeNil()
      }
    }
  }
}
