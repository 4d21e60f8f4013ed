import DeckSupport
import SandboxAdminAPI

/// What a sandbox does to its API responses on purpose: the delay (`deck sandbox delay`) and
/// the fault rules in force (`deck sandbox fault`), asked on its operator endpoints, which
/// neither slows. A doctor that only probes base URLs would not see a rule on one endpoint.
struct InjectedFaults: Sendable {
  /// Milliseconds added to every API response (0: none).
  var delayMilliseconds: Int
  /// The fault rules in force, in the order they are tried.
  var rules: [Components.Schemas.Fault]
}

enum InjectedFaultsCheck {
  static let name = "injected faults"

  /// `found`: what the sandbox said, or why it could not be asked.
  static func evaluate(_ found: Result<InjectedFaults, DeckError>) -> DoctorCheck {
    let injected: InjectedFaults
    switch found {
    case .failure(let error):
      return .warning(
        name, "cannot ask the sandbox for its delay and fault rules: \(error.message)",
        fix: error.hint ?? "deck sandbox status")
    case .success(let value):
      injected = value
    }
    var found: [String] = []
    var fixes: [String] = []
    if injected.delayMilliseconds > 0 {
      found.append("every API response is delayed by \(injected.delayMilliseconds) ms")
      fixes.append("deck sandbox delay 0")
    }
    if !injected.rules.isEmpty {
      let count = injected.rules.count
      let rules = injected.rules.map { "rule \($0.id): \($0.summary)" }.joined(separator: "; ")
      found.append("\(count) fault rule\(count == 1 ? "" : "s") in force (\(rules))")
      fixes.append("deck sandbox fault clear")
    }
    guard !found.isEmpty else { return .ok(name, "none: no delay and no fault rules") }
    return .warning(name, found.joined(separator: "; "), fix: fixes.joined(separator: " && "))
  }
}
