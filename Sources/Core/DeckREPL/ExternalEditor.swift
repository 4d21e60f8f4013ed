import CReadline
import DeckSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The user's editor on a private temporary file, for the REPL's `edit` (pgcli's `\e`).
///
/// The editor runs in the foreground with the terminal, between two prompts: readline has
/// already given the terminal back as it found it, and it is restored again afterwards, in case
/// the editor leaves it in another mode. The editor stays in deck's process group (so Ctrl-Z
/// stops both, and the shell's `fg` resumes both); a Ctrl-C in the editor also reaches deck's
/// SIGINT handler, where, with no command running, it does nothing.
enum ExternalEditor {
  /// `$VISUAL`, else `$EDITOR`, else `vi`. It may carry arguments (`code -w`): like git, deck
  /// runs it through `sh -c`, with the file as `$1`.
  static func command(_ environment: [String: String]) -> String {
    for name in ["VISUAL", "EDITOR"] {
      if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
    }
    return "vi"
  }

  /// Writes `text` to a new temporary file (mode 0600), runs the editor on it, and returns
  /// what was saved. The file is removed in every case.
  static func edit(_ text: String, environment: [String: String]) throws -> String {
    let directory = environment["TMPDIR"].flatMap { $0.hasPrefix("/") && $0.count > 1 ? $0 : nil } ?? "/tmp"
    var template = Array("\(directory)/deck-edit-XXXXXX.sh".utf8CString)
    // mkstemps creates the file with mode 0600, O_EXCL: nobody else can have it open.
    let fd = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemps($0, 3) } ?? -1
    }
    guard fd >= 0 else { throw AtomicFile.posixError("Cannot create a temporary file in \(directory)") }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { unlink(path) }
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { write(fd, $0 + offset, buffer.count - offset) } ?? -1
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        close(fd)
        throw AtomicFile.posixError("Cannot write \(path)")
      }
      offset += written
    }
    close(fd)
    let editor = command(environment)
    let status = try run(editor, on: path, environment: environment)
    guard status == 0 else {
      throw DeckError.failure(
        status > 128
          ? "The editor (\(editor)) was stopped by signal \(status - 128); nothing was run."
          : "The editor (\(editor)) exited with \(status); nothing was run.",
        hint: "Set the editor with VISUAL or EDITOR, e.g. export EDITOR=nano")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DeckError.failure("Cannot read back \(path); nothing was run.")
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// Runs `sh -c 'EDITOR "$1"' sh FILE` in the foreground and returns its exit status
  /// (128 + N when signal N ended it). The terminal's modes are restored afterwards.
  private static func run(_ editor: String, on path: String, environment: [String: String]) throws -> Int32 {
    var saved = termios()
    let terminal = tcgetattr(0, &saved) == 0
    defer {
      if terminal {
        tcsetattr(0, TCSANOW, &saved)
        // The window may have been resized while the editor had it.
        deck_rl_resize_terminal()
      }
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The editor starts with default signal actions and nothing blocked, whatever deck's
    // threads have set up.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGQUIT, SIGTSTP, SIGTERM, SIGHUP, SIGPIPE, SIGWINCH, SIGCHLD] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    var variables = environment
    variables.removeValue(forKey: "DECK_TOKEN")  // the editor has no use for it
    let arguments: [String] = ["sh", "-c", "\(editor) \"$1\"", "sh", path]
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let failure = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, envp)
    guard failure == 0 else {
      throw DeckError.failure("Cannot start the editor (\(editor)): \(String(cString: strerror(failure))).")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { throw AtomicFile.posixError("Lost track of the editor (\(editor))") }
    }
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }
}
