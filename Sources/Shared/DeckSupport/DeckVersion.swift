public enum DeckVersion {
  /// The version reported by `deck --version` and sent as `User-Agent: deck/<version>`.
  public static let current = "0.1.0"
}
