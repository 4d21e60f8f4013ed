import DeckNetworking
import Foundation

/// Redacts what a report or the progress shows, as `--trace` does: JSON Web Tokens, bearer
/// tokens, secret JSON fields and query parameters, and the values of the scenario's secret
/// variables (a name with password, secret or token in it). A step's stdin is never shown.
struct ReportRedactor: Sendable {
  var secrets: [String]

  init(variables: [String: String]) {
    secrets = Self.secrets(variables)
  }

  static func secrets(_ variables: [String: String]) -> [String] {
    variables.filter { name, value in
      let lower = name.lowercased()
      return ["password", "secret", "token"].contains { lower.contains($0) } && value.count >= 4
    }.map(\.value).sorted { $0.count > $1.count }
  }

  /// The same, with the secrets of `variables` (captures may have added some).
  func with(_ variables: [String: String]) -> ReportRedactor {
    var copy = self
    copy.secrets = Array(Set(secrets + Self.secrets(variables))).sorted { $0.count > $1.count }
    return copy
  }

  func redact(_ text: String) -> String {
    var text = text
    for secret in secrets { text = text.replacingOccurrences(of: secret, with: Redactor.mask) }
    text = text.replacing(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/, with: Redactor.mask)
    text = text.replacing(/(?i)(bearer\s+)[A-Za-z0-9._~+\/=-]{8,}/) { $0.output.1 + Redactor.mask }
    text = Redactor.redact(body: Data(text.utf8), limit: Int.max)
    return Redactor.redact(url: text)
  }

  func redacting(_ step: StepResult) -> StepResult {
    var step = step
    step.line = redact(step.line)
    step.message = step.message.map(redact)
    step.expected = step.expected.map(redact)
    step.actual = step.actual.map(redact)
    step.stdout = step.stdout.map(redact)
    step.stderr = step.stderr.map(redact)
    return step
  }
}
