/// The workspace spec's pure logic (workspace-onboarding.md): routes, access, onboarding
/// payloads, invite links. No I/O; the commands and the sandbox both use it, so the client
/// and the sandbox cannot disagree about a rule.
public enum WorkspaceRules {
  /// How long a team invite stays valid (section 5, "Expiry and status").
  public static let inviteLifetimeDays = 7

  /// The onboarding use cases (section 4, `UseCase`).
  public static let useCases = UseCase.allCases
}

/// Email addresses as the workspace rules compare them.
public enum EmailRules {
  /// Trimmed and lowercased: invites match `lower(trim(email))` (section 5, "Email match").
  public static func normalize(_ email: String) -> String {
    trim(email).lowercased()
  }

  /// Whether two addresses are the same, ignoring case and surrounding whitespace.
  public static func matches(_ first: String, _ second: String) -> Bool {
    normalize(first) == normalize(second)
  }

  /// A plausible address: one "@", a non-empty local part, a dotted domain, no whitespace.
  public static func isValid(_ email: String) -> Bool {
    let email = trim(email)
    guard !email.isEmpty, email.count <= 254, !email.contains(where: \.isWhitespace) else { return false }
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty else { return false }
    let domain = parts[1]
    return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".") && !domain.contains("..")
  }

  static func trim(_ text: String) -> String {
    var view = Substring(text)
    while let first = view.first, first.isWhitespace { view = view.dropFirst() }
    while let last = view.last, last.isWhitespace { view = view.dropLast() }
    return String(view)
  }
}
