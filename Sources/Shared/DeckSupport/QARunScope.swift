import FoundationEssentials

/// The scope of a `deck qa run` in a sandbox: every request of a scenario's steps carries
/// `Deck-QA-Run: <run>/<scenario>`, so that the fault rules and delay a scenario sets apply to its
/// own requests only, and `sandbox status` can show the runs in progress. `qa run` gives the
/// steps the value in `DECK_QA_RUN`; deck sends it with every request to every service. It
/// names a run, it grants nothing: it is not a secret.
public enum QARunScope {
  /// The request header.
  public static let header = "Deck-QA-Run"
  /// The variable `qa run` sets for its steps.
  public static let variable = "DECK_QA_RUN"
  /// The longest value a sandbox accepts.
  public static let maximumLength = 200

  /// Whether `value` is a scope: 1 to ``maximumLength`` letters, digits and `.`, `_`, `-`,
  /// with one `/` between a run and a scenario part, neither empty.
  public static func isValid(_ value: String) -> Bool {
    let parts = value.split(separator: "/", omittingEmptySubsequences: false)
    guard (1...maximumLength).contains(value.utf8.count), parts.count <= 2 else { return false }
    return parts.allSatisfy { part in !part.isEmpty && part.utf8.allSatisfy(isAllowed) }
  }

  /// The run a scope belongs to: its part before the `/`.
  public static func run(of scope: String) -> String {
    String(scope.split(separator: "/", maxSplits: 1).first ?? Substring(scope))
  }

  /// The scope of scenario `scenario` in run `run`: characters a scope cannot hold become `_`,
  /// and the scenario part is cut so that the whole fits ``maximumLength``.
  public static func scope(run: String, scenario: String) -> String {
    let cleaned = String(
      decoding: scenario.utf8.map { isAllowed($0) ? $0 : UInt8(ascii: "_") }.prefix(
        max(1, maximumLength - run.utf8.count - 1)),
      as: UTF8.self)
    return "\(run)/\(cleaned.isEmpty ? "_" : cleaned)"
  }

  private static func isAllowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
      true
    default: false
    }
  }
}
