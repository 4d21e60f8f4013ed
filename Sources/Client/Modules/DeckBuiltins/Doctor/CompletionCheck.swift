import DeckSupport
import FoundationEssentials

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
    let prefix = binary.map { PathText.parent(PathText.parent($0)) }
    var paths: [String?]
    switch shell {
    case "bash":
      // Where deck's script may be: bash-completion's directories (``bashLocations``) and
      // scripts/install's, next to this binary (which only bash-completion 2.12 searches).
      paths = [
        absolute("BASH_COMPLETION_USER_DIR").flatMap { $0.split(separator: ":").first }.map {
          "\($0)/completions/deck"
        },
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
      let directory = userBashDirectory(environment)
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

  /// Reads a file's text; nil when there is none. Injected, so tests give a fake filesystem.
  typealias Reader = (String) -> String?

  /// The whole check: what the user's shell will really load. `binaries` are this deck's paths
  /// (see `locations`); `expected` is this deck's script for the shell.
  static func check(
    shellPath: String?, environment: [String: String], binaries: [String?], expected: String?, read: Reader
  ) -> DoctorCheck {
    let shell = shellPath.map { PathText.lastComponent($0) } ?? ""
    var seen = Set<String>()
    let searched = binaries.flatMap { locations(shell: shell, environment: environment, binary: $0) }.filter {
      seen.insert($0).inserted
    }
    var installed: (path: String, contents: String)?
    for path in searched {
      if let contents = read(path) {
        installed = (path, contents)
        break
      }
    }
    guard shell == "bash", let expected else {
      return evaluate(
        shellPath: shellPath, searched: searched, installed: installed, expected: expected, environment: environment)
    }
    return checkBash(
      environment: environment, binaries: binaries, candidates: searched, installed: installed, expected: expected,
      read: read)
  }

  /// bash: what `~/.bashrc` loads, else what bash-completion loads, else why bash loads nothing.
  /// `candidates` are the places deck's script may be, `installed` the first one found.
  private static func checkBash(
    environment: [String: String], binaries: [String?], candidates: [String],
    installed: (path: String, contents: String)?, expected: String, read: Reader
  ) -> DoctorCheck {
    let searched = candidates
    // What ~/.bashrc loads itself works with or without bash-completion.
    if let loaded = bashrcLoad(environment: environment, searched: searched, read: read) {
      switch loaded {
      case .evaluated(let bashrc):
        return .ok("completion", "\(bashrc) runs `deck completion bash`")
      case .sourced(let bashrc, let path, let contents):
        guard contents == expected else {
          return .warning(
            "completion", "\(path), which \(bashrc) sources, differs from this deck's script (another version?)",
            fix: "deck completion bash > \(path)")
        }
        return .ok("completion", "\(path) (sourced by \(bashrc)) matches this deck's bash script")
      }
    }
    if let completion = bashCompletion(environment: environment, binaries: binaries, read: read) {
      return checkBashCompletion(
        completion, environment: environment, binaries: binaries, candidates: candidates, expected: expected,
        read: read)
    }
    // Without bash-completion, bash reads none of the directories above.
    let bashrc = "~/.bashrc"
    guard let installed else {
      let directory = userBashDirectory(environment)
      return .warning(
        "completion",
        "no deck completion for bash installed, and bash-completion is not installed, so bash would not load a script from its directories",
        fix:
          "mkdir -p \(directory) && deck completion bash > \(directory)/deck && echo 'source \(directory)/deck' >> \(bashrc)"
      )
    }
    let refresh = installed.contents == expected ? "" : "deck completion bash > \(installed.path) && "
    return .warning(
      "completion",
      "bash-completion is not installed, so bash will not load \(installed.path)\(refresh.isEmpty ? "" : " (which also differs from this deck's script)")",
      fix: "\(refresh)echo 'source \(installed.path)' >> \(bashrc)")
  }

  /// Where bash-completion's main script may be: bash reads the completion directories only
  /// through it (the distribution's, one under a data directory or next to this deck, Homebrew's).
  static func bashCompletionScripts(environment: [String: String], binaries: [String?]) -> [String] {
    let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
      .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    let prefixes = binaries.compactMap { $0 }.map {
      PathText.parent(PathText.parent($0))
    }
    var paths = ["/usr/share/bash-completion/bash_completion", "/etc/bash_completion"]
    paths += (dataDirs + prefixes.map { "\($0)/share" }).map { "\($0)/bash-completion/bash_completion" }
    paths += (prefixes + ["/opt/homebrew", "/usr/local"]).map { "\($0)/etc/profile.d/bash_completion.sh" }
    var seen = Set<String>()
    return paths.filter { seen.insert($0).inserted }
  }

  /// How `~/.bashrc` loads deck's completion itself, if it does.
  enum BashrcLoad: Equatable {
    /// `eval "$(deck completion bash)"` or `source <(deck completion bash)`.
    case evaluated(bashrc: String)
    /// `source PATH` (or `. PATH`) of deck's script, with the script's contents.
    case sourced(bashrc: String, path: String, contents: String)
  }

  /// The line of `~/.bashrc` that loads deck's completion: one that evaluates `deck completion
  /// bash`, or sources a file that is deck's script (one of `searched`, or a script that
  /// registers `__deck_words_joined`, or `_deck` as older scripts did). Comments are skipped.
  static func bashrcLoad(environment: [String: String], searched: [String], read: Reader) -> BashrcLoad? {
    guard let home = environment["HOME"].flatMap({ $0.hasPrefix("/") ? $0 : nil }) else { return nil }
    let bashrc = home + "/.bashrc"
    guard let text = read(bashrc) else { return nil }
    for rawLine in text.split(whereSeparator: \.isNewline) {
      let line = rawLine.trimming(.whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line.contains("deck completion bash"),
        line.contains("eval") || line.contains("source <(") || line.contains(". <(")
      {
        return .evaluated(bashrc: bashrc)
      }
      let words = line.split(whereSeparator: { " \t;&|".contains($0) }).map(String.init)
      for (index, word) in words.enumerated() where (word == "source" || word == ".") && index + 1 < words.count {
        var path = words[index + 1].trimming(.characters(["\"", "'"]))
        for variable in ["$HOME", "${HOME}", "~"] where path.hasPrefix(variable + "/") {
          path = home + path.dropFirst(variable.count)
        }
        guard path.hasPrefix("/"), let contents = read(path),
          searched.contains(path) || contents.contains("-F __deck_words_joined deck")
            || contents.contains("-F _deck deck")
        else { continue }
        return .sourced(bashrc: bashrc, path: path, contents: contents)
      }
    }
    return nil
  }

  /// The user's own bash completion directory, as bash-completion finds it and the fixes write
  /// it: `$BASH_COMPLETION_USER_DIR/completions` (its first directory), else
  /// `${XDG_DATA_HOME:-~/.local/share}/bash-completion/completions`.
  static func userBashDirectory(_ environment: [String: String]) -> String {
    if let user = environment["BASH_COMPLETION_USER_DIR"]?.split(separator: ":").first, user.hasPrefix("/") {
      return "\(user)/completions"
    }
    return environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? "\($0)/bash-completion/completions" : nil }
      ?? "~/.local/share/bash-completion/completions"
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
    let shell = PathText.lastComponent(shellPath)
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
