import CReadline
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// GNU readline for the REPL: prompts, history, Tab completion, and Ctrl-C that clears the
/// line at the prompt and cancels the running command otherwise.
///
/// readline's callbacks are C function pointers without context, so their state lives in
/// these globals, guarded by `Mutex` and `Atomic`.
enum Readline {
  /// Candidates for the word under the cursor, given the line up to the cursor.
  static let completer = Mutex<(@Sendable (String) -> [String])?>(nil)
  /// True while a command runs (Ctrl-C cancels it instead of clearing the line).
  static let commandRunning = Atomic<Bool>(false)
  /// The write end of the pipe the SIGINT handler signals a running command through.
  static let interruptFD = Atomic<Int32>(-1)
  /// Set by SIGINT; read and cleared around each prompt.
  static let interruptRequested = Atomic<Bool>(false)
  /// The thread blocked in readline, while it is (so SIGINT can wake it).
  static let readlineThread = Atomic<UInt>(0)
  static let readlineWaiting = Atomic<Bool>(false)

  /// Reads a key for readline; after Ctrl-C, ends the line empty instead.
  static let getc: @convention(c) (UnsafeMutablePointer<FILE>?) -> Int32 = { stream in
    var byte: UInt8 = 0
    let fd = stream.map { fileno($0) } ?? 0
    while true {
      let count = Glibc.read(fd, &byte, 1)
      if count == 1 { return Int32(byte) }
      if count == 0 || errno != EINTR { return EOF }
      if interruptRequested.load(ordering: .relaxed) {
        rl_replace_line("", 0)
        return 10  // newline: readline returns the (now empty) line
      }
    }
  }

  /// Complete the whole line as one value (prompts) instead of shell words (the REPL).
  static let wholeLine = Atomic<Bool>(false)
  private static let installed = Atomic<Bool>(false)

  static let complete: deck_completion_function = { text, _, _ in
    let linePointer = deck_rl_line_to_point()
    let line = linePointer.map { String(cString: $0) } ?? ""
    free(linePointer)
    let typed = text.map { String(cString: $0) } ?? ""
    let quoted = deck_rl_completion_quote_character() != 0 || wholeLine.load(ordering: .relaxed)
    let candidates = completer.withLock { $0 }?(line) ?? []
    guard !candidates.isEmpty else {
      deck_rl_completion_flags(1)
      return nil
    }
    // Inside a quote readline closes it; outside, names with spaces are quoted here.
    let replacements = candidates.map { quoted ? $0 : ShellWords.quote($0) }
    var common = commonPrefix(replacements)
    if common.count < typed.count || !common.lowercased().hasPrefix(typed.lowercased().prefix(common.count)) {
      if replacements.count > 1 { common = typed }
    }
    deck_rl_completion_flags(
      replacements.count == 1 && (replacements[0].hasSuffix("=") || replacements[0].hasSuffix("/")) ? 1 : 0)
    // readline wants [substitution, match..., NULL] and frees the array and strings with free(3).
    let entries = replacements.count == 1 ? [replacements[0]] : [common] + replacements
    let list = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (entries.count + 1))!
      .assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
    for (index, entry) in entries.enumerated() { list[index] = strdup(entry) }
    list[entries.count] = nil
    return list
  }

  static func commonPrefix(_ values: [String]) -> String {
    guard var prefix = values.first else { return "" }
    for value in values.dropFirst() {
      while !value.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
  }

  /// Installs the handlers. SIGINT: clear the line, or cancel the command. SIGTERM, SIGHUP
  /// and crashes: restore the terminal, then die of the same signal.
  static func install(name: String) {
    guard !installed.exchange(true, ordering: .relaxed) else { return }
    deck_rl_configure(strdup(name), complete)
    deck_rl_set_getc(getc)
    deck_install_sigint { _ in
      // If readline is waiting for a key, it returns an empty line (see `getc`).
      Readline.interruptRequested.store(true, ordering: .relaxed)
      if Readline.readlineWaiting.load(ordering: .relaxed) {
        let thread = pthread_t(Readline.readlineThread.load(ordering: .relaxed))
        if pthread_equal(pthread_self(), thread) == 0 { pthread_kill(thread, SIGUSR2) }
      }
      if Readline.commandRunning.load(ordering: .relaxed) {
        var byte: UInt8 = 1
        _ = write(Readline.interruptFD.load(ordering: .relaxed), &byte, 1)
      }
    }
    for fatal in [SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE] {
      signal(fatal) { number in
        deck_rl_restore_terminal()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  /// What one prompt ended with.
  enum Input: Equatable {
    case line(String)
    /// Ctrl-C: the line was dropped.
    case interrupted
    /// Ctrl-D on an empty line, or stdin closed.
    case end
  }

  /// One line from the terminal.
  static func read(prompt: String) -> Input {
    interruptRequested.store(false, ordering: .relaxed)
    readlineThread.store(UInt(pthread_self()), ordering: .relaxed)
    // readline may run on any thread (after an await, a libdispatch thread, which blocks
    // signals): let the wake-up signal in while it waits.
    let mask = deck_unblock_wake_signal()
    readlineWaiting.store(true, ordering: .relaxed)
    let pointer = readline(prompt)
    readlineWaiting.store(false, ordering: .relaxed)
    deck_restore_signal_mask(mask)
    defer { free(pointer) }
    if interruptRequested.exchange(false, ordering: .relaxed) {
      writeStdout("^C\n")
      return .interrupted
    }
    guard let pointer else { return .end }
    return .line(String(cString: pointer))
  }

  private static func writeStdout(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
  }

  static func addToHistory(_ line: String) { add_history(line) }

  static var lastHistoryLine: String? { deck_history_line(0).map { String(cString: $0) } }

  /// The last `count` history lines, oldest first.
  static func recentHistory(_ count: Int) -> [String] {
    let total = Int(deck_history_length())
    return (0..<min(count, total)).reversed().compactMap { deck_history_line(Int32($0)).map { String(cString: $0) } }
  }
}
