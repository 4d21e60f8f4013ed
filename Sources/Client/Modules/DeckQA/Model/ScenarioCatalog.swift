import DeckSupport
import FoundationEssentials

/// The scenarios deck ships (embedded at build time by EmbedScenarios) and the files a user
/// names, and the selection `deck qa run|list` makes from them.
enum ScenarioCatalog {
  /// The variable that points deck at a checkout's `Sources/Features`, to read the shipped
  /// scenarios from there instead of the copy built in (for writing them: no rebuild).
  static let sourcesVariable = "DECK_QA_SOURCES"

  /// The modules deck ships scenarios for, in the order they are built in: each feature's
  /// folder, lowercased (`brokerage` for Sources/Features/Brokerage/QA).
  static let shippedModules: [String] = EmbeddedScenarios.files.reduce(into: []) { modules, file in
    guard let module = file.name.split(separator: "/").first?.lowercased(), !modules.contains(module) else { return }
    modules.append(module)
  }

  /// The shipped files: their names (`prefs/school.yaml`: the module, then the file's name, as
  /// `deck qa show` and `deck qa export` name them) and texts.
  static func files() throws -> [(path: String, yaml: String)] {
    guard let root = ProcessInfo.processInfo.environment[sourcesVariable], !root.isEmpty else {
      return EmbeddedScenarios.files.map { (path: shippedName($0.name), yaml: $0.text) }
    }
    let manager = FileManager.default
    guard let features = try? manager.contentsOfDirectory(atPath: root) else {
      throw DeckError.usage(
        "\(sourcesVariable)=\(root) is not a directory deck can read.",
        hint: "Point it at a checkout's Sources/Features, or unset it to use the scenarios built in.")
    }
    var files: [(path: String, yaml: String)] = []
    for feature in features.sorted() where !feature.hasPrefix(".") {
      let names = (try? manager.contentsOfDirectory(atPath: "\(root)/\(feature)/QA")) ?? []
      for name in names.sorted() where name.hasSuffix(".yaml") && !name.hasPrefix(".") {
        let path = "\(root)/\(feature)/QA/\(name)"
        let data = try InputFile.read(path, what: "the scenario file", hint: "Check its permissions.")
        files.append((shippedName("\(feature)/QA/\(name)"), String(decoding: data, as: UTF8.self)))
      }
    }
    return files
  }

  /// A shipped file's name from its path under Sources/Features: `Prefs/QA/school.yaml` is
  /// `prefs/school.yaml`.
  static func shippedName(_ path: String) -> String {
    let parts = path.split(separator: "/")
    guard let feature = parts.first, let name = parts.last, parts.count > 1 else { return path }
    return "\(feature.lowercased())/\(name)"
  }

  /// Every shipped scenario, in module and file order. A shipped file that does not parse is a
  /// bug in deck; it is reported like a user's file (64), naming it.
  static func shipped() throws -> [Scenario] {
    try files().filter { !isRowsFile($0.path) }.flatMap {
      try ScenarioParser.scenarios($0.yaml, file: $0.path).map {
        var scenario = $0
        scenario.shipped = true
        return scenario
      }
    }
  }

  /// Every shipped module's spec rows.
  static func shippedRows() throws -> [SpecRows] {
    try files().filter { isRowsFile($0.path) }.map { try ScenarioParser.rows($0.yaml, file: $0.path) }
  }

  static func isRowsFile(_ path: String) -> Bool { PathText.lastComponent(path) == "rows.yaml" }

  /// The scenario files `argument` names: the file itself, or every `*.yaml` and `*.yml` under
  /// a directory (its subdirectories too, in name order; hidden ones and `rows.yaml` skipped).
  static func scenarioFiles(under argument: String) -> [String] {
    var isDirectory = false
    guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else { return [] }
    guard isDirectory else { return [argument] }
    return yamlFiles(under: argument).filter { !isRowsFile($0) }
  }

  /// Every `*.yaml` and `*.yml` file under `directory`, in name order, depth first; hidden
  /// files and directories are skipped, and so are directories deeper than 16 levels.
  static func yamlFiles(under directory: String, depth: Int = 0) -> [String] {
    guard depth < 16 else { return [] }
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    var files: [String] = []
    for name in names.sorted() where !name.hasPrefix(".") {
      let path = base + "/" + name
      var isDirectory = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
      if isDirectory {
        files += yamlFiles(under: path, depth: depth + 1)
      } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
        files.append(path)
      }
    }
    return files
  }

  /// The scenarios of the user's file at `path`.
  static func userScenarios(_ path: String) throws -> [Scenario] {
    try ScenarioParser.scenarios(try text(of: path), file: path)
  }

  /// A user's file as UTF-8 text.
  static func text(of path: String) throws -> String {
    let data = try InputFile.read(path, what: "the scenario file", hint: "Check the path and its permissions.")
    guard let text = String(data: data, encoding: .utf8) else {
      throw DeckError.usage("\(path) is not UTF-8 text.", hint: "Save the scenario file as UTF-8.")
    }
    return text
  }

  /// The scenarios `arguments` name: shipped modules by name, scenario files by path, and
  /// directories (every scenario file under them); all shipped ones when there are none. Each
  /// scenario runs once per row of `data` when given (``ScenarioData``). Then only those with
  /// every tag in `tags` and an id matching one of `ids` (`*` and `?` as in the shell), when given.
  static func select(
    _ arguments: [String], tags: [Scenario.Tag], ids: [String], data: ScenarioData? = nil
  ) throws -> [Scenario] {
    var chosen: [Scenario] = []
    if arguments.isEmpty {
      chosen = try shipped()
    } else {
      let all = try shipped()
      let modules = Set(all.map(\.module))
      for argument in arguments {
        // A module's rows.yaml lists spec rows, not scenarios: `deck qa run QA/*.yaml` skips it.
        if isRowsFile(argument) && FileManager.default.fileExists(atPath: argument) { continue }
        if modules.contains(argument.lowercased()) && !FileManager.default.fileExists(atPath: argument) {
          chosen += all.filter { $0.module == argument.lowercased() }
          continue
        }
        guard FileManager.default.fileExists(atPath: argument) else {
          throw DeckError.usage(
            "No scenario module, file or directory \"\(TerminalText.sanitize(argument))\".",
            hint:
              "Name a module (\(modules.sorted().joined(separator: ", "))), a scenario file or a directory of them; `deck qa list` shows them."
          )
        }
        let files = scenarioFiles(under: argument)
        if files.isEmpty {
          throw DeckError.usage(
            "The directory \(TerminalText.sanitize(argument)) holds no scenario file (*.yaml).",
            hint: "Export the shipped ones to start from with: deck qa export \(ShellWords.quote(argument))")
        }
        for file in files { chosen += try userScenarios(file) }
      }
    }
    if let data { chosen = data.expand(chosen) }
    var seen: [String: Scenario] = [:]
    for scenario in chosen {
      if let other = seen[scenario.id], other.file != scenario.file || other.line != scenario.line {
        throw DeckError.usage(
          "The scenario id \"\(scenario.id)\" is used twice: \(other.file):\(other.line) and \(scenario.file):\(scenario.line).",
          hint: "Give each scenario its own id.")
      }
      seen[scenario.id] = scenario
    }
    var unique: [Scenario] = []
    var added = Set<String>()
    for scenario in chosen where added.insert(scenario.id).inserted { unique.append(scenario) }
    return unique.filter { scenario in
      tags.allSatisfy(scenario.tags.contains)
        && (ids.isEmpty
          || ids.contains { pattern in
            Glob.matches(pattern, scenario.id) || scenario.data.map { Glob.matches(pattern, $0.base) } == true
          })
    }
  }
}

/// Shell-style patterns for `--id`: `*` any run of characters, `?` one character.
enum Glob {
  static func matches(_ pattern: String, _ text: String) -> Bool {
    let pattern = Array(pattern)
    let text = Array(text)
    var p = 0
    var t = 0
    var star: Int?
    var resume = 0
    while t < text.count {
      if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) {
        p += 1
        t += 1
      } else if p < pattern.count && pattern[p] == "*" {
        star = p
        resume = t
        p += 1
      } else if let star {
        p = star + 1
        resume += 1
        t = resume
      } else {
        return false
      }
    }
    while p < pattern.count && pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}
