extension Components.Schemas.Fault {
  /// The rule in a few words, as `deck sandbox fault` and `deck doctor` show it:
  /// "GET /api/** → 503 (Retry-After 2) after 200 ms, 3 more times, p=0.5"; a used-up rule
  /// ends in ", used up".
  public var summary: String {
    var text = "\(method.rawValue) \(path) → "
    switch action {
    case .status:
      text += "\(status ?? 503)" + (retryAfter.map { " (Retry-After \($0))" } ?? "")
    case .latency: text += "late"
    case .reset: text += "connection reset"
    case .truncate: text += "truncated body"
    case .malformed: text += "malformed body"
    case .drop_hyphen_field: text += "without \(field ?? "?")"
    case .retype_hyphen_field: text += "\(field ?? "?") of another type"
    case .enum_hyphen_value: text += "\(field ?? "?") = \"\(value ?? "")\""
    }
    if latencyMs > 0 { text += " after \(latencyMs) ms" }
    if let remaining {
      text += remaining == 0 ? ", used up" : ", \(remaining) more time\(remaining == 1 ? "" : "s")"
    }
    if probability < 1 { text += ", p=\(probability)" }
    return text
  }
}
