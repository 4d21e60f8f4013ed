/// The environment variables that carry deck's secrets. deck reads them once, into its
/// session's copy of the environment, and no program it starts gets them.
public enum SecretVariables {
  public static let names = ["DECK_TOKEN", "DECK_SANDBOX_ADMIN_TOKEN"]
}
