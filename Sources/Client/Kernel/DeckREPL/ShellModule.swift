import ArgumentParser
import DeckConfig
import DeckCore
import DeckSupport
import FoundationEssentials

/// The shell around the commands: the REPL, scripts, completion scripts and plugins.
public enum ShellModule: DeckModule {
  public static let name = "shell"
  public static let summary = "The REPL, script mode, shell completion and external plugins."
  public static let services: [Service] = []
  public static var commands: [any ParsableCommand.Type] {
    [ReplCommand.self, RunCommand.self, CompletionCommand.self, PluginsCommand.self]
  }
}

struct ReplCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "repl", _superCommandName: "deck",
    abstract: "Start the interactive shell (also: `deck` with no arguments on a terminal).",
    discussion: HelpText.discussion(
      """
      Readline editing, history (Ctrl-R searches it), and Tab completion of commands, flags, values, \
      brokerage names and file names. Built-ins: help, history [N], history --export FILE (this session's \
      successful commands as a script for `deck run`), edit (the last line in $VISUAL or $EDITOR, then \
      run what is saved), use ENV, clear, exit. Ctrl-C clears the line, or cancels the running command.
      """, exits: [.usage("already in the REPL")]))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    if let env = global.env { context.session.sessionEnvironment.withLock { $0 = env } }
    let code = await REPL(session: context.session).run()
    if code != 0 { throw ArgumentParser.ExitCode(code) }
  }
}

struct RunCommand: DeckCommand, NamingFiles {
  static let files = FileArguments(readsArgument: true)

  static let configuration = CommandConfiguration(
    commandName: "run", _superCommandName: "deck",
    abstract: "Run the deck commands in a file (or stdin, `-`), one per line.",
    discussion: HelpText.discussion(
      """
      Lines are split like shell words; `#` starts a comment and a leading `deck` is optional. Like \
      `sh -e`, the first failing command stops the run and its exit code is deck's. Output is exactly \
      what each command prints one-shot. `deck` with stdin not a terminal does the same as `deck run -`.

      `let NAME = COMMAND…` runs the command and keeps what it prints on stdout (less one trailing \
      newline) as NAME, e.g. `let sid = kiosk next --jq .acted.publicId`; later lines use it as \
      `$NAME` or `${NAME}`, unquoted or in double quotes (not in single quotes, nor as `\\$`). A value \
      stays one word. An undefined name, or a `let` whose command fails, is a failure of that line.

      With --keep-going, each failure is reported as FILE:LINE: the line: exit N, and the run ends \
      with a summary (N lines run, M failed (lines …)) and the first failure's exit code.
      """,
      exits: ExitDoc.all + [
        .usage(
          "the script cannot be read, a quote is left open, a malformed let or an undefined $NAME, or a line's usage error"
        )
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The script; `-` reads stdin.", completion: .file())
  var file: String = "-"

  @Flag(help: "Run every line, report each failure (FILE:LINE), end with a summary and the first failure's code.")
  var keepGoing = false

  func run(_ context: DeckContext) async throws {
    if let env = global.env { context.session.sessionEnvironment.withLock { $0 = env } }
    let lines: [String]
    if file == "-" {
      lines = ScriptInput.stdinLines()
    } else {
      guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
        throw DeckError.usage("Cannot read the script \(file).", hint: "Check the path and its permissions.")
      }
      lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
    let code = await ScriptRunner(session: context.session, keepGoing: keepGoing)
      .run(lines: lines, source: file == "-" ? "stdin" : file)
    if code != 0 { throw ArgumentParser.ExitCode(code) }
  }
}

/// Reads stdin line by line.
public enum ScriptInput {
  public static func stdinLines() -> [String] {
    var lines: [String] = []
    while let line = readLine(strippingNewline: true) { lines.append(line) }
    return lines
  }
}

struct CompletionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "completion", _superCommandName: "deck",
    abstract: "Print the completion script for bash, zsh or fish.",
    discussion: HelpText.discussion(
      """
      Dynamic values (brokerage names, environments, accounts) come from deck itself.
        bash: deck completion bash > ~/.local/share/bash-completion/completions/deck
        zsh:  deck completion zsh > "${fpath[1]}/_deck"
        fish: deck completion fish > ~/.config/fish/completions/deck.fish
      """, exits: [.usage("an unknown shell")]))

  enum Shell: String, ExpressibleByArgument, CaseIterable {
    case bash, zsh, fish
  }

  @Argument(help: "The shell.")
  var shell: Shell

  func run() throws {
    Output.writeStdout(DeckShell.completionScript(for: shell.kind) ?? "")
  }
}

extension CompletionCommand.Shell {
  var kind: CompletionShell {
    switch self {
    case .bash: .bash
    case .zsh: .zsh
    case .fish: .fish
    }
  }
}

struct PluginsCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "plugins", _superCommandName: "deck",
    abstract: "List external plugins: executables named deck-NAME on PATH.",
    discussion: HelpText.discussion(
      """
      `deck NAME …` runs deck-NAME with DECK_ENV and the environment's service URLs \
      (DECK_FLYR_URL, …) set, but never the token: a plugin that needs one runs `deck auth token`. \
      A built-in command always wins a name clash.
      """, exits: []))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let plugins = Plugins.discover(
      path: context.session.processEnvironment["PATH"], builtins: DeckShell.builtinNames)
    try context.output.emit(plugins) {
      guard !plugins.isEmpty else {
        return context.output.info("No plugins: put an executable named deck-NAME on PATH.")
      }
      context.output.table(
        ["NAME", "PATH", "NOTE"],
        plugins.map { [$0.name, $0.path, $0.shadowed ? "shadowed by the built-in `deck \($0.name)`" : ""] })
    }
  }
}
