import DeckSupport
import FoundationEssentials

/// bash-completion as this user's bash runs it: which directories its loader
/// (`__load_completion`, `_comp_load` from 2.12) searches for `deck` when Tab is first pressed,
/// so that doctor passes only a script bash will really load.
struct BashCompletion: Equatable {
  /// The main script (`…/share/bash-completion/bash_completion`).
  var script: String
  /// Its `BASH_COMPLETION_VERSINFO` ([2, 11]); empty when it does not say.
  var version: [Int]

  /// 2.12 and later also search `../share/bash-completion/completions` beside each `…/bin`
  /// directory on PATH (and the command's own), and read `BASH_COMPLETION_USER_DIR` as a list.
  var searchesBesidePATH: Bool { !version.isEmpty && !version.lexicographicallyPrecedes([2, 12]) }

  /// "bash-completion 2.11", or without a version when the script gives none.
  var name: String {
    version.isEmpty ? "bash-completion" : "bash-completion \(version.map(String.init).joined(separator: "."))"
  }

  /// The version in a main script's text: `BASH_COMPLETION_VERSINFO=(2 11)`.
  static func version(in text: String) -> [Int] {
    guard let start = text.firstRange(of: "BASH_COMPLETION_VERSINFO=(") else { return [] }
    let rest = text[start.upperBound...]
    return rest.prefix { $0 != ")" && !$0.isNewline }.split(separator: " ").compactMap { Int($0) }
  }

  /// The main script a loader file leads to: `/etc/bash_completion` and Homebrew's
  /// `PREFIX/etc/profile.d/bash_completion.sh` source `…/share/bash-completion/bash_completion`.
  static func mainScript(of loader: String) -> String {
    if loader == "/etc/bash_completion" { return "/usr/share/bash-completion/bash_completion" }
    let profile = "/etc/profile.d/bash_completion.sh"
    if loader.hasSuffix(profile) {
      return String(loader.dropLast(profile.count)) + "/share/bash-completion/bash_completion"
    }
    return loader
  }

  /// Where its loader looks for deck's script, in its order; first the compat directory, whose
  /// files it sources whole when it starts (so they win). `binaries`: this deck's paths.
  func locations(environment: [String: String], binaries: [String?]) -> [String] {
    func absolute(_ name: String) -> String? {
      environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil }
    }
    let home = absolute("HOME")
    var user: [String]
    if let list = environment["BASH_COMPLETION_USER_DIR"], !list.isEmpty {
      user = (searchesBesidePATH ? list.split(separator: ":").map(String.init) : [list]).map { "\($0)/completions" }
    } else {
      user = [
        (absolute("XDG_DATA_HOME") ?? home.map { "\($0)/.local/share" }).map { "\($0)/bash-completion/completions" }
      ]
      .compactMap { $0 }
    }
    let data = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
      .split(separator: ":").map { "\($0)/bash-completion/completions" }
    let own = [PathText.parent(script) + "/completions"]
    var directories = [absolute("BASH_COMPLETION_COMPAT_DIR") ?? "/etc/bash_completion.d"] + user
    if searchesBesidePATH {
      let bins =
        binaries.compactMap { $0 }.map(PathText.parent)
        + (environment["PATH"] ?? "").split(separator: ":").map(String.init)
      let besidePATH = bins.filter { $0.hasSuffix("/bin") }.map {
        PathText.parent($0) + "/share/bash-completion/completions"
      }
      directories += own + besidePATH + data
    } else {
      directories += data + own
    }
    var seen = Set<String>()
    return directories.filter { $0.hasPrefix("/") && seen.insert($0).inserted }.map { $0 + "/deck" }
  }
}

extension CompletionCheck {
  /// bash-completion, when a loader file is there: the first of `bashCompletionScripts`.
  static func bashCompletion(environment: [String: String], binaries: [String?], read: Reader) -> BashCompletion? {
    for loader in bashCompletionScripts(environment: environment, binaries: binaries) {
      guard let text = read(loader) else { continue }
      let script = BashCompletion.mainScript(of: loader)
      let main = script == loader ? text : read(script) ?? ""
      return BashCompletion(script: script, version: BashCompletion.version(in: main))
    }
    return nil
  }

  /// With bash-completion: the first script in its directories, compared with this deck's; a
  /// script only elsewhere (scripts/install's `PREFIX/share/bash-completion/completions` when
  /// PREFIX/share is not a data directory) is not loaded: the fix links it into the user's
  /// directory, which bash-completion always searches.
  static func checkBashCompletion(
    _ completion: BashCompletion, environment: [String: String], binaries: [String?], candidates: [String],
    expected: String, read: Reader
  ) -> DoctorCheck {
    let searched = completion.locations(environment: environment, binaries: binaries)
    var found: (path: String, contents: String)?
    for path in searched where found == nil {
      found = read(path).map { (path, $0) }
    }
    guard found == nil, let stray = candidates.first(where: { !searched.contains($0) && read($0) != nil }) else {
      return evaluate(
        shellPath: "bash", searched: searched, installed: found, expected: expected, environment: environment)
    }
    let directory = userBashDirectory(environment)
    let refresh = read(stray) == expected ? "" : "deck completion bash > \(stray) && "
    return .warning(
      "completion",
      "\(completion.name) does not look in \(PathText.parent(stray)) (only in its user directory and the data "
        + "directories of XDG_DATA_DIRS), so bash will not load \(stray)"
        + (refresh.isEmpty ? "" : " (which also differs from this deck's script)"),
      fix: "\(refresh)mkdir -p \(directory) && ln -sf \(stray) \(directory)/deck")
  }
}
