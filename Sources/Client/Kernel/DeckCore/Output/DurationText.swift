/// How deck words a span of time: "45 s", "5 min 3 s", "2 h 5 min", "3 days" (rounded down;
/// the sign is dropped). One wording for doctor, `auth status` and `sandbox status`.
public enum DurationText {
  public static func words(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "?" }
    let total = Int(min(abs(seconds), 1e12).rounded(.down))
    if total < 60 { return "\(total) s" }
    if total < 3600 { return total % 60 == 0 ? "\(total / 60) min" : "\(total / 60) min \(total % 60) s" }
    if total < 2 * 86_400 {
      return (total % 3600) / 60 == 0 ? "\(total / 3600) h" : "\(total / 3600) h \((total % 3600) / 60) min"
    }
    return "\(total / 86_400) days"
  }
}
