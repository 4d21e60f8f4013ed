import DeckSupport
import Foundation

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
      environment[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
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
    let ignored = Self.ignoreInterrupts()
    var modes = termios()
    let terminal = tcgetattr(0, &modes) == 0
    defer {
      if terminal { tcsetattr(0, TCSANOW, &modes) }
      Self.restore(ignored)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The editor gets the default dispositions for the signals deck ignores while it waits.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGINT)
    sigaddset(&defaults, SIGQUIT)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    // sh -c 'EDITOR "$@"' EDITOR FILE: the command is shell text, the file one argument.
    let arguments = ["/bin/sh", "-c", command + " \"$@\"", command, path]
    var child: pid_t = 0
    let spawned = LocalProcess.withExecArrays(arguments, environment) { argv, envp in
      posix_spawn(&child, "/bin/sh", nil, &attributes, argv, envp)
    }
    guard spawned == 0 else {
      throw DeckError.failure(
        "Cannot start the editor `\(TerminalText.sanitize(command))`: \(String(cString: strerror(spawned))).")
    }
    let pid = child
    // waitpid blocks: wait on a thread of its own, not on the cooperative pool. The editor owns
    // the terminal until it exits, so a cancelled command still waits for it.
    return await withCheckedContinuation { continuation in
      let waiter = Thread {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        continuation.resume(returning: signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal))
      }
      waiter.name = "deck-editor"
      waiter.start()
    }
  }

  private struct SavedHandlers {
    var interrupt = sigaction()
    var quit = sigaction()
  }

  /// Ignores SIGINT and SIGQUIT, returning the handlers to put back.
  private static func ignoreInterrupts() -> SavedHandlers {
    var saved = SavedHandlers()
    var ignore = sigaction()
    sigemptyset(&ignore.sa_mask)
    #if canImport(Glibc)
      ignore.__sigaction_handler.sa_handler = SIG_IGN
    #else
      ignore.__sigaction_u.__sa_handler = SIG_IGN
    #endif
    sigaction(SIGINT, &ignore, &saved.interrupt)
    sigaction(SIGQUIT, &ignore, &saved.quit)
    return saved
  }

  private static func restore(_ saved: SavedHandlers) {
    var saved = saved
    sigaction(SIGINT, &saved.interrupt, nil)
    sigaction(SIGQUIT, &saved.quit, nil)
  }
}

/// A file for the editor: in a private directory of its own (0700) under the temporary
/// directory (`TMPDIR`), mode 0600.
public struct EditFile: Sendable {
  public let directory: String
  public let path: String

  public init(name: String) throws {
    var template = Array((FileManager.default.temporaryDirectory.path + "/deck-edit-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
    guard let made else {
      throw AtomicFile.posixError("cannot create a temporary directory")
    }
    directory = String(cString: made)
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
