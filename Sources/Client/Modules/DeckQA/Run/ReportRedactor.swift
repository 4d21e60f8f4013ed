import DeckCore
import DeckNetworking
import DeckSupport
import FoundationEssentials

/// Redacts what a report or the progress shows, as `--trace` does: JSON Web Tokens, bearer
/// tokens, secret JSON fields and query parameters, and the values of the scenario's secret
/// variables (`secretNames`, such as its `from-env` ones, and every name with password,
/// secret or token in it) wherever they appear: also encoded, spaced out or in another case
/// (``ReportText/maskingSecrets(_:_:mask:)``). A step's stdin is never shown.
struct ReportRedactor: Sendable {
  /// Longest first, so that a secret inside another is not half masked.
  var secrets: [String]
  let secretNames: Set<String>

  init(variables: [String: String], secretNames: [String] = []) {
    self.secretNames = Set(secretNames)
    secrets = Self.secrets(variables, names: self.secretNames)
  }

  static func secrets(_ variables: [String: String], names: Set<String>) -> [String] {
    variables.filter { name, value in isSecret(name, names: names) && value.count >= 4 }.map(\.value).sorted {
      $0.count > $1.count
    }
  }

  /// Whether a variable holds a secret: one of `names` (the `from-env` ones), or a name with
  /// password, secret or token in it.
  static func isSecret(_ name: String, names: Set<String>) -> Bool {
    let lower = name.lowercased()
    return names.contains(name) || ["password", "secret", "token"].contains { lower.contains($0) }
  }

  /// The same, with the secrets of `variables` (captures may have added some).
  func with(_ variables: [String: String]) -> ReportRedactor {
    var copy = self
    copy.secrets = Array(Set(secrets + Self.secrets(variables, names: secretNames))).sorted { $0.count > $1.count }
    return copy
  }

  func redact(_ text: String) -> String {
    var text = ReportText.maskingSecrets(text, secrets, mask: Redactor.mask)
    text = Redactor.redact(text: text)
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
    step.expectations = step.expectations.map { ExpectationOutcome(text: redact($0.text), held: $0.held) }
    return step
  }
}
