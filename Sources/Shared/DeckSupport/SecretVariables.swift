/// The environment variables deck defines that carry a secret: read from the session's copy of
/// the environment only, removed from the process's own at start-up, and never passed to a
/// process deck starts (a plugin, the editor) nor seen by `--jq`'s `$ENV` and `env`.
public enum SecretVariables {
  /// A user's access token for the current environment's services.
  public static let token = "DECK_TOKEN"
  /// The sandbox's admin token (its operator endpoints).
  public static let sandboxAdminToken = "DECK_SANDBOX_ADMIN_TOKEN"

  /// Every secret-bearing variable: the one list the filters below use.
  public static let names = [token, sandboxAdminToken]

  /// `environment` without any of them.
  public static func removed(from environment: [String: String]) -> [String: String] {
    environment.filter { !names.contains($0.key) }
  }
}
