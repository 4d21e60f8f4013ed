import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxLaunch

/// `deck env add NAME --sandbox URL` and `deck env set NAME --all URL`: what they say about the
/// admin token.
enum SandboxPointing {
  /// Prints the note on stderr: for a person always; with another format only when the token
  /// is missing (something to do).
  static func tell(_ outcome: SandboxAdminTokenFinder.Outcome, environment name: String, output: Output) {
    if case .found = outcome, !output.isHuman { return }
    output.info(note(environment: name, outcome: outcome))
  }

  /// The note after the environment is saved: the token taken, or exactly how to give it.
  static func note(environment name: String, outcome: SandboxAdminTokenFinder.Outcome) -> String {
    switch outcome {
    case .found(let candidate):
      return
        "Saved the sandbox's admin token (from \(candidate.source)), so `deck --env \(name) sandbox …` works."
    case .notFound(let reason):
      return
        "No admin token saved: \(reason). Give it with: deck env set \(name) \(ConfigFile.sandboxAdminTokenKey)=TOKEN (TOKEN: from the line sandbox-admin-token=TOKEN that `deck sandbox serve` prints)"
    }
  }
}
