import DeckCore
import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a scenario's step may do. A scenario file is code that runs with the operator's rights
/// (docs/QA.md, "A scenario is code"); these rules keep its steps inside their run:
/// - a step runs against `qa run --env` alone: it names no `--env` of its own;
/// - no `qa run` inside a scenario, no REPL, and a script only from the step's own stdin
///   (`run -`), without `let` or `$NAME` (so that every line it runs is written in the scenario);
/// - a file a step writes (as its command declares: ``FileArguments``) is under ``writable``
///   (the run's working directory, `${WORKDIR}`, and each `--allow-writes-outside`);
/// - a jq expression that holds a secret variable does not transform it (``transforms``);
/// - a step that reads a file from outside ``writable`` (as its command declares)
///   keeps its output out of the report (the runner withholds it).
struct StepPolicy: Sendable {
  /// Directories (absolute, normalized) steps may write under.
  var writable: [String]
  /// What relative paths are relative to: the directory `qa run` runs in (the steps inherit it).
  var currentDirectory: String

  /// The commands that name files, as they declare it (``DeckRegistry/fileArguments``).
  let files: [(command: [String], files: FileArguments)]
  /// Every option spelling that takes a file, of any command.
  let fileOptions: Set<String>

  init(writable: [String], currentDirectory: String, files: [(command: [String], files: FileArguments)]) {
    self.writable = writable
    self.currentDirectory = currentDirectory
    self.files = files
    fileOptions = Set(files.flatMap(\.files.optionNames))
  }

  /// deck's global options that take a value (besides the commands' file options).
  static let valueOptions: Set<String> = ["--env", "--format", "--jq", "--timeout"]
  /// jq's builtins that turn a string into another (an encoding, a case, its characters or a
  /// part of it): not applied to a secret variable.
  static let transforms = [
    "@base64", "@base32", "@uri", "@html", "@sh", "@csv", "@tsv", "@json", "@text", "explode", "implode",
    "ascii_downcase", "ascii_upcase", "ascii", "tojson", "tostring", "split", "splits", "join", "ltrimstr", "rtrimstr",
    "trim", "ltrim", "rtrim", "sub", "gsub", "match", "capture", "scan", "reverse",
  ]

  /// A step's words, as deck's argument parser reads them: positional words (the command's
  /// names, then its arguments) and options with their values.
  struct Line {
    var positional: [String] = []
    var options: [(name: String, value: String?)] = []

    init(_ words: [String], fileOptions: Set<String>) {
      var words = words[...]
      if words.first == "deck" { words = words.dropFirst() }
      var rest = false
      while let word = words.popFirst() {
        if rest || !word.hasPrefix("-") || word == "-" {
          positional.append(word)
        } else if word == "--" {
          rest = true
        } else if !word.hasPrefix("--"), word.count > 2, fileOptions.contains(String(word.prefix(2))) {
          // A short option with its value attached: -o/path, -Fkey=@file.
          options.append((String(word.prefix(2)), String(word.dropFirst(2))))
        } else if let equals = word.firstIndex(of: "=") {
          options.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
        } else if valueOptions.contains(word) || fileOptions.contains(word) {
          options.append((word, words.popFirst()))
        } else {
          options.append((word, nil))
        }
      }
    }

    func names(_ command: [String]) -> Bool { positional.starts(with: command) }

    /// The values of the options named in `names`.
    func values(_ names: Set<String>) -> [(name: String, value: String)] {
      options.compactMap { option in option.value.map { (option.name, $0) } }.filter { names.contains($0.name) }
    }
  }

  /// `words` as the parser reads them, knowing every option that takes a file.
  func line(_ words: [String]) -> Line {
    Line(words, fileOptions: fileOptions)
  }

  /// The declarations of the commands `line` names (a group's and its subcommand's, when both do).
  func declared(_ line: Line) -> [(command: [String], files: FileArguments)] {
    files.filter { line.names($0.command) }
  }

  /// Why `words` may not run as a step (nil: they may). `known`: false at load time, when a
  /// value holding `$` is not known yet (it is checked when the step runs); `script`: the
  /// lines a `run -` step reads from its stdin.
  func refusal(_ words: [String], stdin: String?, known: Bool) -> String? {
    let line = line(words)
    if let option = line.options.first(where: { ["--env", "-e", "-env"].contains($0.name) }) {
      return
        "a step may not name \(option.name): every step runs against qa run --env (give the environment there, or split the scenarios)"
    }
    if line.names(["qa", "run"]) { return "a step may not run deck qa run (a run inside a scenario)" }
    if line.names(["repl"]) {
      return "a step may not start the REPL; give its lines as a script: run: run -, with stdin:"
    }
    if line.names(["run"]) {
      let script = line.positional.dropFirst().first ?? "-"
      guard script == "-" else {
        return
          "a step runs a script only from its stdin (run -), so that every line it runs is the scenario's; not \(script)"
      }
      if let stdin, let problem = scriptRefusal(stdin, known: known) { return problem }
    }
    let named = declared(line)
    for (name, value) in line.values(Set(named.flatMap(\.files.writes))) {
      if let problem = writeRefusal(name, value, known: known) { return problem }
    }
    for (command, files) in named where files.writesArgument {
      if let path = line.positional.dropFirst(command.count).first,
        let problem = writeRefusal(command.joined(separator: " "), path, known: known)
      {
        return problem
      }
    }
    return nil
  }

  /// Why a `run -` step's script may not run: each of its lines as a step.
  func scriptRefusal(_ script: String, known: Bool) -> String? {
    var pending = ""
    for (offset, text) in script.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      pending += pending.isEmpty ? String(text) : "\n" + text
      guard case .words(let words) = ShellWords.split(pending) else { continue }
      let command = pending
      pending = ""
      let place = "stdin line \(offset + 1)"
      if words.first == "let" { return "\(place): a scenario's script has no let (use the step's capture:)" }
      if known {
        do {
          _ = try ShellWords.expand(command, variables: [:])
        } catch {
          return "\(place): a scenario's script has no $NAME of its own (use the scenario's ${NAME})"
        }
      }
      if let problem = refusal(words, stdin: nil, known: known) { return "\(place): \(problem)" }
    }
    return nil
  }

  /// Why writing `value` (the value of `option`) is refused.
  func writeRefusal(_ option: String, _ value: String, known: Bool) -> String? {
    var path = value
    let database = ["--database", "--db"].contains(option)
    if database {
      if path.hasPrefix("postgres://") || path.hasPrefix("postgresql://") { return nil }
      if path.hasPrefix("sqlite:") { path = String(path.dropFirst("sqlite:".count)) }
    }
    if path == "-" && !database { return nil }
    if !known && path.contains("$") { return nil }
    guard !isWritable(path) else { return nil }
    return
      "\(option) \(value) is outside the run's working directory; write under ${WORKDIR}, or give qa run --allow-writes-outside DIR"
  }

  /// Whether `path` is under one of ``writable``: normalized, with the symbolic links of the
  /// part of it that exists resolved.
  func isWritable(_ path: String) -> Bool {
    let absolute = Self.resolved(Self.normalized(path.hasPrefix("/") ? path : currentDirectory + "/" + path))
    return writable.contains { directory in
      let directory = Self.resolved(directory)
      return absolute == directory || absolute.hasPrefix(directory == "/" ? "/" : directory + "/")
    }
  }

  /// Whether a file the line reads is outside ``writable`` (`-`, the step's stdin, is not).
  func readsOutside(_ words: [String]) -> Bool {
    let line = line(words)
    let named = declared(line)
    var read = line.values(Set(named.flatMap(\.files.reads))).map(\.value)
    read += line.values(Set(named.flatMap(\.files.readsFields))).compactMap { option in
      option.value.firstRange(of: "=@").map { String(option.value[$0.upperBound...]) }
    }
    for (command, files) in named where files.readsArgument {
      read += line.positional.dropFirst(command.count).prefix(1)
    }
    return read.contains { $0 != "-" && !isWritable($0) }
  }

  /// Why a jq expression of a step may not run: it applies a transforming builtin to a secret.
  static func transformRefusal(_ expression: String, secrets: Set<String>) -> String? {
    guard let secret = secrets.sorted().first(where: { expression.contains("${\($0)}") }) else { return nil }
    let words = Set(expression.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "@") }.map(String.init))
    let slicing = expression.contains(/\[[^\]]*:[^\]]*\]/)
    guard let used = transforms.first(where: words.contains) ?? (slicing ? "a slice" : nil) else { return nil }
    return
      "jq applies \(used) to the secret ${\(secret)}, which would take it past redaction; compare it whole (== \"${\(secret)}\") instead"
  }

  /// `path` with `.`, `..` and repeated slashes taken out.
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        _ = parts.popLast()
      } else {
        parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// `path` (absolute, normalized) with its longest existing prefix's symbolic links resolved.
  static func resolved(_ path: String) -> String {
    var head = path
    var tail: [String] = []
    while head != "/" {
      if let real = realpath(head, nil) {
        defer { free(real) }
        let base = String(cString: real)
        return tail.isEmpty ? base : (base == "/" ? "" : base) + "/" + tail.reversed().joined(separator: "/")
      }
      guard let slash = head.lastIndex(of: "/") else { break }
      tail.append(String(head[head.index(after: slash)...]))
      head = slash == head.startIndex ? "/" : String(head[..<slash])
    }
    return path
  }
}

extension StepPolicy {
  /// Every step of `scenarios` checked before anything runs, as far as its line is known then:
  /// a usage error (64) naming the file, the line and the fix.
  func validate(_ scenarios: [Scenario]) throws {
    for scenario in scenarios {
      let fromEnvironment = Set(scenario.fromEnvironment.map(\.name))
      let names =
        scenario.generate.map(\.name) + scenario.vars.map(\.name) + scenario.steps.flatMap { $0.captures.map(\.name) }
      let secrets = fromEnvironment.union(names.filter { ReportRedactor.isSecret($0, names: fromEnvironment) })
      for step in scenario.steps {
        guard case .words(let words) = ShellWords.split(step.run) else { continue }
        let expressions =
          step.expect.jq.map(\.expression) + step.captures.map(\.expression)
          + line(words).options.filter { $0.name == "--jq" }.compactMap(\.value)
        let problem =
          refusal(words, stdin: step.stdin, known: false)
          ?? expressions.lazy.compactMap { Self.transformRefusal($0, secrets: secrets) }.first
        if let problem {
          throw DeckError.usage(
            "\(scenario.file):\(step.line): run: \(problem).",
            hint: "A scenario runs with your rights; docs/QA.md (\"A scenario is code\") gives what a step may do.")
        }
      }
    }
  }

  /// `step` as a report may show it when it read a file from outside the run: without its
  /// output, nor a message or an actual value made of it.
  static func withholding(_ step: StepResult) -> StepResult {
    let note = "(withheld: the step reads a file from outside the run, so its output stays out of reports)"
    var step = step
    step.stdout = nil
    step.stderr = nil
    step.actual = step.actual.map { _ in note }
    if let message = step.message, message.hasPrefix("jq ") || message.hasPrefix("capture ") {
      step.message = note
    }
    return step
  }
}
