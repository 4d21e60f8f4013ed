import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The user's text editor, run on a file the way git and kubectl run it: `$VISUAL` (unless the
/// terminal is dumb), else `$EDITOR`, else `vi`, through `/bin/sh` so that a command with
/// arguments (`code --wait`, `emacs -nw`) works. The editor gets deck's terminal (stdin, stdout
/// and stderr) and deck waits for it to exit; meanwhile Ctrl-C and Ctrl-\ belong to the editor
/// (deck ignores SIGINT and SIGQUIT, and puts its own handlers, the REPL's included, back after).
/// Works one-shot and inside the REPL (its `edit`), where readline has the terminal in its
/// normal mode between lines; the terminal's modes are put back after the editor, in case it
/// left them changed.
public struct ExternalEditor: Sendable {
  /// The shell command that starts the editor (the file is appended as its argument).
  public let command: String
  /// The environment the editor runs with.
  public let environment: [String: String]

  /// deck's secrets (``SecretVariables``) are left out of the editor's environment: it has no use for them.
  public init(command: String, environment: [String: String]) {
    self.command = command
    self.environment = SecretVariables.removed(from: environment)
  }

  /// The editor `environment` names: `VISUAL` (not when `TERM` is `dumb`), else `EDITOR`, else `vi`.
  public init(environment: [String: String]) {
    self.init(command: Self.command(in: environment), environment: environment)
  }

  public static func command(in environment: [String: String]) -> String {
    func value(_ name: String) -> String? {
      environment[name].flatMap { $0.trimming(.whitespaces).isEmpty ? nil : $0 }
    }
    if environment["TERM"] != "dumb", let visual = value("VISUAL") { return visual }
    return value("EDITOR") ?? "vi"
  }

  /// Runs the editor on `path` and waits until it exits. Throws (exit 1) when it cannot be
  /// started or does not exit with status 0, naming the command and what to set.
  public func edit(_ path: String) async throws {
    let status = try await run(path)
    let name = TerminalText.sanitize(command)
    switch status {
    case .exited(0):
      return
    case .exited(127):
      throw DeckError.failure(
        "The editor `\(name)` was not found.", hint: "Set VISUAL or EDITOR to your editor, e.g. export EDITOR=nano")
    case .exited(let code):
      throw DeckError.failure("The editor `\(name)` exited with status \(code).")
    case .signaled(let signal):
      throw DeckError.failure("The editor `\(name)` was stopped by signal \(signal).")
    }
  }

  /// Opens `text` in the editor as a private file named `fileName` (so editors pick the right
  /// highlighting) and returns what was saved; the file is removed in every case.
  public func edit(text: String, fileName: String) async throws -> String {
    let file = try EditFile(name: fileName)
    defer { file.remove() }
    try file.write(text)
    try await edit(file.path)
    return try file.read()
  }

  enum Status: Equatable {
    case exited(Int32)
    case signaled(Int32)
  }

  private func run(_ path: String) async throws -> Status {
    let ignored = LocalProcess.ignoreSignals([SIGINT, SIGQUIT])
    var modes = termios()
    let terminal = tcgetattr(0, &modes) == 0
    defer {
      if terminal { tcsetattr(0, TCSANOW, &modes) }
      LocalProcess.restoreSignals(ignored)
    }
    // sh -c 'EDITOR "$@"' EDITOR FILE: the command is shell text, the file one argument. It gets
    // the default dispositions of the signals deck ignores while it waits.
    let pid: pid_t
    do {
      pid = try LocalProcess.spawnForeground(
        "/bin/sh", arguments: ["-c", command + " \"$@\"", command, path], environment: environment)
    } catch {
      throw DeckError.failure("Cannot start the editor `\(TerminalText.sanitize(command))`: \(error.reason).")
    }
    // The editor owns the terminal until it exits, so a cancelled command still waits for it.
    return await BlockingWork.run(named: "deck-editor") {
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      let signal = status & 0x7f
      return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
  }
}

/// A file for the editor: in a private directory of its own (0700) under the temporary
/// directory (`TMPDIR`), mode 0600.
public struct EditFile: Sendable {
  public let directory: String
  public let path: String

  public init(name: String) throws {
    directory = try SecureDirectory.makeTemporary(prefix: "deck-edit-")
    path = directory + "/" + name
  }

  public func write(_ text: String) throws {
    try AtomicFile.write(Data(text.utf8), to: path, mode: 0o600)
  }

  /// The file as the editor left it (at most ``InputFile/limit`` bytes).
  public func read() throws -> String {
    guard FileManager.default.fileExists(atPath: path) else {
      throw DeckError.failure("The edited file \(path) is gone; nothing was sent.")
    }
    let data = try InputFile.read(path, what: "the edited file", hint: "Your version is kept in \(path).")
    return String(decoding: data, as: UTF8.self)
  }

  public func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
