import CReadline
import DeckAuth
import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The interactive shell: `deck` on a terminal, or `deck repl`.
///
/// Every line goes through the same parser and runner as one-shot mode. The session (and
/// with it the connection pool and the local sandbox) lives as long as the REPL.
public struct REPL: Sendable {
  let session: DeckSession
  let history: HistoryFile
  static let active = Atomic<Bool>(false)
  static let builtins = ["help", "exit", "quit", "history", "use", "clear", "edit"]
  /// The REPL's own words; a plugin with one of these names runs only one-shot.
  public static var builtinNames: [String] { builtins }

  public init(session: DeckSession) {
    self.session = session
    let limit = HistoryFile.limit(fromVariable: session.processEnvironment["DECK_HISTORY_SIZE"])
    self.history = HistoryFile(path: session.paths.historyFile, limit: limit)
  }

  /// Runs until `exit`, `quit` or Ctrl-D. readline blocks its thread, so this runs on the
  /// main thread and commands run in tasks.
  @MainActor
  public func run() async -> Int32 {
    session.runsManyLines.withLock { $0 = true }
    guard !Self.active.exchange(true, ordering: .relaxed) else {
      session.output.error("Already in the REPL.")
      return ExitCode.usage
    }
    defer { Self.active.store(false, ordering: .relaxed) }
    Readline.install(name: "deck")
    for line in history.load() { Readline.addToHistory(line) }
    let commands = CommandSlot(output: session.output)
    Readline.commandInterrupt.withLock { $0 = { commands.interrupt() } }
    defer { Readline.commandInterrupt.withLock { $0 = nil } }
    installCompleter()
    session.output.info("deck \(DeckVersion.current): `help` lists commands, Tab completes, Ctrl-D exits.")
    var log = SessionLog()
    while true {
      switch readEntry() {
      case .end:
        return ExitCode.success
      case .nothing:
        continue
      case .command(let line, var words):
        remember(line, words: words)
        if words.first == "deck" { words.removeFirst() }
        guard !words.isEmpty else { continue }
        if let code = await dispatch(line: line, words: words, commands: commands, log: &log) { return code }
      }
    }
  }

  /// Tab completion over the command tree, the REPL's own words and the plugins on PATH.
  private func installCompleter() {
    let plugins = Plugins.discover(path: session.processEnvironment["PATH"], builtins: DeckShell.builtinNames)
      .filter { !$0.shadowed }.map(\.name)
    let engine = CompletionEngine(
      tree: CommandTree.of(DeckShell.root), extraCommands: Self.builtins + plugins,
      dynamic: { path, argument, words, index, prefix in
        DeckShell.customCompletion(path: path, argument: argument, words: words, index: index, prefix: prefix)
      },
      paths: { [home = session.processEnvironment["HOME"]] prefix, kind in
        PathCompletion.candidates(prefix: prefix, kind: kind, home: home)
      })
    let session = session
    Readline.completer.withLock {
      $0 = { line in Self.complete(line, engine: engine, session: session) }
    }
  }

  /// What the reader got: the end of input, nothing to run, or a command's text and words.
  enum Entry {
    case end
    case nothing
    case command(line: String, words: [String])
  }

  /// Reads one command: a line, and its continuation lines while a quote or a trailing
  /// backslash leaves it open.
  func readEntry() -> Entry {
    var line: String
    switch Readline.read(prompt: prompt()) {
    case .end:
      session.output.line()
      return .end
    case .interrupted:
      return .nothing
    case .line(let text):
      line = text
    }
    // Each line is scanned once (the scanner keeps its state), and a continuation is capped.
    var pending = ShellWords.Continuation()
    var lineCount = 1
    var step = pending.add(line, number: lineCount)
    continuation: while step == .more {
      switch Readline.read(prompt: "... ") {
      case .line(let more):
        line += "\n" + more
        lineCount += 1
        step = pending.add(more, number: lineCount)
      case .interrupted, .end: break continuation
      }
    }
    if step == .tooLong {
      session.output.error(
        "\(pending.problem) of this command; it ran on for more than \(ShellWords.Continuation.maxLines) lines or \(ShellWords.Continuation.maxBytes / 1024) KiB, so deck dropped it."
      )
      return .nothing
    }
    guard case .words(let words) = step, !words.isEmpty else { return .nothing }
    return .command(line: line, words: words)
  }

  /// Runs one command: a word of the REPL's own, or a deck command. The exit code when the
  /// REPL ends.
  @MainActor
  func dispatch(line: String, words: [String], commands: CommandSlot, log: inout SessionLog) async -> Int32? {
    let session = session
    switch words[0] {
    case "exit", "quit":
      return ExitCode.success
    case "help":
      if words.count == 1 { printHelp() }
      _ = await commands.run { await DeckShell.run(Array(words.dropFirst()) + ["--help"], session: session) }
    case "history":
      historyCommand(Array(words.dropFirst()), log: log)
    case "use":
      use(Array(words.dropFirst()))
    case "clear":
      session.output.writeOut("\u{1B}[H\u{1B}[2J\u{1B}[3J\n")
    case "edit":
      guard words.count == 1 else {
        session.output.error("Usage: edit  (opens the last line in $VISUAL or $EDITOR, then runs what you save)")
        return nil
      }
      await edit(commands: commands, log: &log)
    default:
      let environment = currentEnvironment()
      let code = await commands.run { await DeckShell.run(words, session: session) }
      log.record(.init(line: line, words: words, environment: environment, exitCode: code))
    }
    return nil
  }

  // MARK: Prompt

  func prompt() -> String {
    let environment = currentEnvironment()
    var label = environment
    if let token = session.processEnvironment["DECK_TOKEN"], !token.isEmpty {
      label += ":DECK_TOKEN"
    } else if let account = try? TokenStore(path: session.paths.tokenFile).accounts(in: environment).active {
      label += ":" + account
    }
    guard session.output.colorEnabled else { return "deck (\(label))> " }
    // \u{1} and \u{2} tell readline the escapes take no room on screen.
    return "\u{1}\u{1B}[1;36m\u{2}deck\u{1}\u{1B}[0m\u{2} (\u{1}\u{1B}[33m\u{2}\(label)\u{1}\u{1B}[0m\u{2})> "
  }

  func currentEnvironment() -> String {
    let file = (try? session.configStore().load()) ?? ConfigFile()
    let resolver = EnvironmentResolver(file: file, processEnvironment: session.processEnvironment)
    return resolver.currentName(flag: session.sessionEnvironment.withLock { $0 }).0
  }

  // MARK: Built-ins

  func printHelp() {
    session.output.line(
      """
      REPL commands:
        help [COMMAND]          help for deck, or for a command
        history [N]             the last N lines (default 25); Ctrl-R searches
        history --export FILE   write this session's successful commands as a script for `deck run`
        edit                    edit the last line (or a new one) in $VISUAL or $EDITOR, then run what you save
        use ENV                 switch the environment for this session only
        clear                   clear the screen
        exit, quit              leave (or Ctrl-D)
      Any deck command works as a line, with or without a leading `deck`.

      """)
  }

  /// `history [N]` or `history --export FILE`.
  func historyCommand(_ arguments: [String], log: SessionLog) {
    switch arguments.count {
    case 0:
      showHistory(25)
    case 1 where (Int(arguments[0]) ?? 0) > 0:
      showHistory(Int(arguments[0]) ?? 25)
    case 2 where arguments[0] == "--export":
      export(log, to: arguments[1])
    default:
      session.output.error("Usage: history [N]  or  history --export FILE")
    }
  }

  /// Writes the session's replayable lines as a script, atomically.
  func export(_ log: SessionLog, to file: String) {
    let path = Self.absolutePath(file, home: session.processEnvironment["HOME"])
    let root = DeckShell.root
    let script = log.script(date: Date()) { words in (try? root.parseAsRoot(words)) != nil }
    do {
      try AtomicFile.write(Data(script.utf8), to: path, mode: 0o600)
    } catch {
      _ = ErrorPresenter.present(error, output: session.output)
      return
    }
    let count = log.replayable.count
    session.output.info(
      "Wrote \(count) command\(count == 1 ? "" : "s") to \(path); replay with: deck run \(ShellWords.quote(path))")
  }

  /// `edit`: the last line (as Up shows it, `edit`, `exit` and `quit` skipped), or an empty
  /// buffer, in the user's editor; what is saved then runs line by line exactly as `deck run`
  /// would run it (quotes and continuation lines alike), stopping at the first failure. An
  /// unchanged or empty buffer runs nothing. The lines that ran go to history and to the
  /// session's log.
  func edit(commands: CommandSlot, log: inout SessionLog) async {
    let last = Self.lineToEdit(Readline.recentHistory(1000))
    let original = last.map { $0 + "\n" } ?? ""
    let saved: String
    do {
      let editor = ExternalEditor(environment: session.processEnvironment)
      defer { deck_rl_resize_terminal() }  // the window may have been resized meanwhile
      saved = try await editor.edit(text: original, fileName: "deck-edit.sh")
    } catch {
      _ = ErrorPresenter.present(error, output: session.output)
      session.output.info("Nothing was run.")
      return
    }
    let text = saved.trimming(.whitespacesAndNewlines)
    guard !text.isEmpty else { return session.output.info("Nothing to run: the buffer is empty.") }
    guard text != original.trimming(.whitespacesAndNewlines) else {
      return session.output.info("Nothing to run: the line is unchanged.")
    }
    var split = saved.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if split.last == "" { split.removeLast() }
    let lines = split
    let environment = currentEnvironment()
    let ran = RanCommands()
    let session = session
    _ = await commands.run {
      await ScriptRunner(session: session, keepGoing: false) { text, words, code in
        ran.list.withLock { $0.append((text, words, code)) }
      }.run(lines: lines, source: "edit")
    }
    for (text, words, code) in ran.list.withLock({ $0 }) {
      remember(text, words: words)
      log.record(.init(line: text, words: words, environment: environment, exitCode: code))
    }
  }

  /// The line `edit` opens: the last one of `history` that is not `edit`, `exit` or `quit`
  /// (with or without `deck`). This session's lines are the last of the history, so it is this
  /// session's last command; in a new session, the last command of an earlier one, never the
  /// `exit` that ended it.
  static func lineToEdit(_ history: [String]) -> String? {
    history.last { line in
      guard case .words(var words) = ShellWords.split(line) else { return true }
      if words.first == "deck" { words.removeFirst() }
      return words != ["edit"] && words != ["exit"] && words != ["quit"]
    }
  }

  /// A path as the user typed it: `~/` is their home, a relative path is from the current directory.
  static func absolutePath(_ path: String, home: String?) -> String {
    if path == "~" || path.hasPrefix("~/"), let home, home.hasPrefix("/") { return home + path.dropFirst() }
    if path.hasPrefix("/") { return path }
    return FileManager.default.currentDirectoryPath + "/" + path
  }

  func showHistory(_ count: Int) {
    let lines = Readline.recentHistory(max(count, 1))
    let total = lines.count
    for (index, line) in lines.enumerated() {
      session.output.line(NumberText.padded(index + 1 + max(0, total - lines.count), width: 5) + "  " + line)
    }
  }

  func use(_ arguments: [String]) {
    guard arguments.count == 1, let name = arguments.first else {
      session.output.error("Usage: use ENV")
      return
    }
    let file = (try? session.configStore().load()) ?? ConfigFile()
    let resolver = EnvironmentResolver(file: file, processEnvironment: session.processEnvironment)
    guard resolver.definition(name) != nil else {
      session.output.error(
        "Unknown environment \"\(name)\". Known: \(resolver.definitions.map(\.name).joined(separator: ", ")).")
      return
    }
    session.sessionEnvironment.withLock { $0 = name }
    session.output.info("Using \"\(name)\" for this session (the config file is unchanged).")
  }

  /// Adds the line to history unless it repeats the last one or carries a secret.
  func remember(_ line: String, words: [String]) {
    guard !HistoryPolicy.isSecret(words), Readline.lastHistoryLine != line else { return }
    Readline.addToHistory(line)
    do { try history.append(line) } catch { session.output.error("Cannot save history: \(error)") }
  }

  // MARK: Completion

  static func complete(_ line: String, engine: CompletionEngine, session: DeckSession) -> [String] {
    let partial = ShellWords.partial(line)
    var words = partial.words
    if words.first == "deck" { words.removeFirst() }
    switch words.first {
    case "use" where words.count == 1:
      return EnvironmentCompletion.names(prefix: partial.current)
    case "help":
      return engine.candidates(words: Array(words.dropFirst()), current: partial.current)
        .filter { !$0.hasPrefix("-") && !builtins.contains($0) }
    case "history" where words.count == 1:
      return ["--export"].filter { $0.hasPrefix(partial.current) }
    case "history" where words.count == 2 && words[1] == "--export":
      return PathCompletion.candidates(
        prefix: partial.current, kind: .anyFile, home: session.processEnvironment["HOME"])
    case let first? where builtins.contains(first):
      return []
    default:
      return engine.candidates(words: words, current: partial.current)
    }
  }
}

/// The commands an `edit` buffer ran (filled from the task that runs them).
final class RanCommands: Sendable {
  let list = Mutex<[(text: String, words: [String], code: Int32)]>([])
}
