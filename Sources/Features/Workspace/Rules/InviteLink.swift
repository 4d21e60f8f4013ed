import FoundationEssentials

/// Invite links: `/join?token=<token>` on the web app, `yourapp://join?token=…`, or the path
/// form `/join/<token>` (section 5, "Invite link handling").
public enum InviteLink {
  /// The token of a join link, or the text itself when it is a bare token. Nil when the
  /// text is empty or a URL without a token.
  public static func token(from text: String) -> String? {
    let trimmed = EmailRules.trim(text)
    guard !trimmed.isEmpty else { return nil }
    let looksLikeLink = trimmed.contains("://") || trimmed.hasPrefix("/") || trimmed.contains("?")
    guard looksLikeLink else { return trimmed.contains(where: \.isWhitespace) ? nil : trimmed }
    return token(in: trimmed)
  }

  /// The token in a link or path: its `token` query item, else the segment after `join/`.
  public static func token(in link: String) -> String? {
    guard let components = URLComponents(string: link) else { return nil }
    if let value = components.queryItems?.first(where: { $0.name == "token" })?.value, !value.isEmpty {
      return value
    }
    var segments = components.path.split(separator: "/").map(String.init)
    // `yourapp://join/<token>`: the host is "join".
    if components.host?.lowercased() == "join" { segments.insert("join", at: 0) }
    if let index = segments.lastIndex(where: { $0.lowercased() == "join" }), index + 1 < segments.count {
      let value = segments[index + 1]
      return value.isEmpty ? nil : value
    }
    return nil
  }

  /// `/join?token=<token>`, percent-encoded.
  public static func joinPath(token: String) -> String {
    var components = URLComponents()
    components.path = "/join"
    components.queryItems = [URLQueryItem(name: "token", value: token)]
    return components.string ?? "/join?token=\(token)"
  }
}
