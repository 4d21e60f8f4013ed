import Foundation

/// The completion script for the user's shell (`$SHELL`): installed where that shell looks,
/// and the same as this deck's `deck completion SHELL` (a script from another version offers
/// commands and flags that are not there, or misses new ones).
enum CompletionCheck {
  static let shells = ["bash", "zsh", "fish"]

  /// Where `shell` looks for deck's completion script, most specific first. `binary` is this
  /// deck's path: `scripts/install --prefix P` puts the scripts under `P/share`, next to `P/bin/deck`.
  static func locations(shell: String, environment: [String: String], binary: String?) -> [String] {
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    func absolute(_ name: String) -> String? { environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }
    let dataHome = absolute("XDG_DATA_HOME") ?? home.map { "\($0)/.local/share" }
    let configHome = absolute("XDG_CONFIG_HOME") ?? home.map { "\($0)/.config" }
    let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
      .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    let prefix = binary.map { (($0 as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent }
    var paths: [String?]
    switch shell {
    case "bash":
      // bash-completion 2: the user directory, then share/ next to each PATH directory (so next
      // to this binary), then XDG_DATA_DIRS, then the old /etc/bash_completion.d.
      paths = [
        absolute("BASH_COMPLETION_USER_DIR").map { "\($0)/completions/deck" },
        dataHome.map { "\($0)/bash-completion/completions/deck" },
        prefix.map { "\($0)/share/bash-completion/completions/deck" },
      ]
      paths += dataDirs.map { "\($0)/bash-completion/completions/deck" }
      paths.append("/etc/bash_completion.d/deck")
    case "zsh":
      // zsh searches $fpath; these are the directories it has by default, scripts/install's,
      // and FPATH when it is exported.
      paths = (environment["FPATH"] ?? "").split(separator: ":").map { "\($0)/_deck" }
      paths += [
        dataHome.map { "\($0)/zsh/site-functions/_deck" },
        prefix.map { "\($0)/share/zsh/site-functions/_deck" },
        "/usr/local/share/zsh/site-functions/_deck",
        "/usr/share/zsh/vendor-completions/_deck",
        "/usr/share/zsh/site-functions/_deck",
      ]
    case "fish":
      paths = [
        configHome.map { "\($0)/fish/completions/deck.fish" },
        dataHome.map { "\($0)/fish/vendor_completions.d/deck.fish" },
        prefix.map { "\($0)/share/fish/vendor_completions.d/deck.fish" },
      ]
      paths += dataDirs.map { "\($0)/fish/vendor_completions.d/deck.fish" }
    default:
      paths = []
    }
    var seen = Set<String>()
    return paths.compactMap { $0 }.filter { seen.insert($0).inserted }
  }

  /// Where to put the script when there is none: the user's own directory.
  static func installCommand(shell: String, environment: [String: String]) -> String {
    switch shell {
    case "bash":
      let directory =
        environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? "\($0)/bash-completion/completions" : nil }
        ?? "~/.local/share/bash-completion/completions"
      return "mkdir -p \(directory) && deck completion bash > \(directory)/deck"
    case "zsh":
      return "deck completion zsh > \"${fpath[1]}/_deck\""
    default:
      let directory =
        environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? "\($0)/fish/completions" : nil }
        ?? "~/.config/fish/completions"
      return "mkdir -p \(directory) && deck completion fish > \(directory)/deck.fish"
    }
  }

  /// `installed`: the first script found (path and contents); `expected`: this deck's script
  /// (nil when it cannot be made here).
  static func evaluate(
    shellPath: String?, searched: [String], installed: (path: String, contents: String)?, expected: String?,
    environment: [String: String]
  ) -> DoctorCheck {
    let name = "completion"
    guard let shellPath, !shellPath.isEmpty else {
      return .ok(name, "SHELL is not set, so there is no shell to check")
    }
    let shell = (shellPath as NSString).lastPathComponent
    guard shells.contains(shell) else {
      return .ok(name, "\(shellPath): deck has completion for bash, zsh and fish only; nothing to check")
    }
    guard let expected else {
      return .warning(name, "cannot make this deck's \(shell) script to compare", fix: "deck completion \(shell)")
    }
    guard let installed else {
      let places = searched.prefix(3).joined(separator: ", ") + (searched.count > 3 ? ", …" : "")
      return .warning(
        name, "no deck completion for \(shell) installed (looked in \(places))",
        fix: installCommand(shell: shell, environment: environment))
    }
    guard installed.contents == expected else {
      return .warning(
        name, "\(installed.path) differs from this deck's script (another version?)",
        fix: "deck completion \(shell) > \(installed.path)")
    }
    return .ok(name, "\(installed.path) matches this deck's \(shell) script")
  }
}
