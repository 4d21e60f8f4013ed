import FoundationEssentials

/// Removes secrets from what deck shows of HTTP traffic: `--trace=body` in the client and the
/// sandbox's request log (`deck sandbox logs --bodies`), which redact alike.
public enum Redactor {
  public static let mask = "[REDACTED]"
  static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie", "apikey"]

  public static func redact(header name: String, value: String) -> String {
    guard secretHeaders.contains(name.lowercased()) else { return value }
    if let space = value.firstIndex(of: " "), value.lowercased().hasPrefix("bearer") {
      return "\(value[..<space]) \(mask)"
    }
    return mask
  }

  /// Masks the values of secret JSON fields (`"access_token": "…"`) in the first `limit` bytes
  /// of `body`, and says how many bytes were left out.
  public static func redact(body: Data, limit: Int) -> String {
    redact(bodyPrefix: body.prefix(limit), totalBytes: body.count)
  }

  /// ``redact(body:limit:)`` of the first bytes of a body of `totalBytes` bytes. A secret value
  /// that the cut ends inside (no closing quote) is masked too, never shown in part.
  public static func redact(bodyPrefix: Data, totalBytes: Int) -> String {
    // access_token, refresh_token, password, token, provider_token and id_token.
    var text = String(decoding: bodyPrefix, as: UTF8.self).replacing(
      /("(?:access_token|refresh_token|password|token|provider_token|id_token)"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|\\?$)/
    ) { $0.output.1 + "\"\(mask)\"" }
    if totalBytes > bodyPrefix.count { text += "\n… (\(totalBytes - bodyPrefix.count) more bytes)" }
    return text
  }

  /// Masks the tokens in free text (a report, what a command printed): JSON Web Tokens (the
  /// shape of every token deck holds) and `Bearer` values.
  public static func redact(text: String) -> String {
    text.replacing(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/, with: mask)
      .replacing(/(?i)(bearer\s+)[A-Za-z0-9._~+\/=-]{8,}/) { $0.output.1 + mask }
  }

  /// Masks secret query parameters (`?token=…`).
  public static func redact(url: String) -> String {
    url.replacing(/([?&](?:token|access_token|refresh_token)=)[^&#\s"']*/) { $0.output.1 + mask }
  }
}
