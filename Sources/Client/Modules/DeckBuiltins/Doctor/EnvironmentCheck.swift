import DeckConfig
import DeckSupport

/// Which environment deck talks to, and which layer chose it.
enum EnvironmentCheck {
  static func evaluate(_ resolved: Result<ResolvedEnvironment, DeckError>) -> DoctorCheck {
    let name = "environment"
    switch resolved {
    case .failure(let error):
      return .failure(name, error)
    case .success(let environment):
      var detail = "\(environment.name), selected by \(environment.source.rawValue)"
      if environment.definition.isManaged {
        detail += " (a local deck-sandbox server that deck starts when a command needs it)"
      }
      if let reason = environment.definition.productionReason { detail += "; production: \(reason)" }
      let overrides = environment.overriddenServices.sorted().map(\.overrideVariable)
      if !overrides.isEmpty { detail += "; \(overrides.joined(separator: ", ")) replace its URLs" }
      return .ok(name, detail)
    }
  }
}
