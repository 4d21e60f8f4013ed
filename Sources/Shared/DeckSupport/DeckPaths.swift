/// Where deck keeps its files, following the XDG base directory spec.
public struct DeckPaths: Sendable, Equatable {
  /// Holds config.yml and the token store.
  public var configDirectory: String
  /// Holds the REPL history and per-environment state such as the kiosk pairing.
  public var stateDirectory: String
  /// Holds the local sandbox's database.
  public var dataDirectory: String

  public init(configDirectory: String, stateDirectory: String, dataDirectory: String) {
    self.configDirectory = configDirectory
    self.stateDirectory = stateDirectory
    self.dataDirectory = dataDirectory
  }

  /// `$DECK_CONFIG_DIR`, else `$XDG_CONFIG_HOME/deck`, else `~/.config/deck` (and likewise
  /// `$XDG_STATE_HOME` and `$XDG_DATA_HOME`).
  public init(environment: [String: String]) {
    // Without HOME there is no safe default (a shared directory such as /tmp could be created
    // first by another user): the path stays relative, and SecureDirectory refuses to use it.
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? SecureDirectory.missingHome
    func xdg(_ name: String, _ fallback: String) -> String {
      if let value = environment[name], value.hasPrefix("/") { return "\(value)/deck" }
      return "\(home)/\(fallback)/deck"
    }
    if let explicit = environment["DECK_CONFIG_DIR"], !explicit.isEmpty {
      configDirectory = explicit
    } else {
      configDirectory = xdg("XDG_CONFIG_HOME", ".config")
    }
    stateDirectory = xdg("XDG_STATE_HOME", ".local/state")
    dataDirectory = xdg("XDG_DATA_HOME", ".local/share")
  }

  public var configFile: String { "\(configDirectory)/config.yml" }
  public var tokenFile: String { "\(configDirectory)/tokens.json" }
  public var historyFile: String { "\(stateDirectory)/history" }
  public var sandboxDatabase: String { "\(dataDirectory)/sandbox.sqlite" }
}
