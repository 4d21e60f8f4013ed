import CReadline
import DeckSupport
import Dispatch
import FoundationEssentials
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
///
/// Ctrl-C: the SIGINT handler only writes a byte to a pipe. A watcher thread reads it and
/// decides under ``prompt``'s lock: a prompt that is up ends empty (the watcher wakes `getc`,
/// which polls a second pipe next to the terminal), else the REPL's running command is
/// interrupted. Because a prompt ends only once the watcher has decided, one Ctrl-C can never
/// both end a prompt and cancel the command typed after it.
enum Readline {
  /// Candidates for the word under the cursor, given the line up to the cursor.
  static let completer = Mutex<(@Sendable (String) -> [String])?>(nil)
  /// What Ctrl-C does while no prompt is up: interrupt the REPL's command. Nil outside the
  /// REPL, where Ctrl-C ends deck as it would had readline never been loaded.
  static let commandInterrupt = Mutex<(@Sendable () -> Void)?>(nil)

  private struct PromptState {
    var active = false
    var interrupted = false
  }
  /// Whether readline shows a prompt now, and whether Ctrl-C ended it.
  private static let prompt = Mutex(PromptState())
  /// The SIGINT handler writes here; the watcher thread reads.
  private static let signalWrite = Atomic<Int32>(-1)
  /// The watcher writes here to end a prompt; `getc` polls the read end (non-blocking).
  private static let wakeRead = Atomic<Int32>(-1)
  private static let wakeWrite = Atomic<Int32>(-1)

  /// Reads a key for readline; after Ctrl-C at this prompt, ends the line empty instead.
  static let getc: @convention(c) (UnsafeMutablePointer<FILE>?) -> Int32 = { stream in
    let fd = stream.map { fileno($0) } ?? 0
    let wake = wakeRead.load(ordering: .relaxed)
    var byte: UInt8 = 0
    while true {
      var fds = [
        pollfd(fd: wake, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
      ]
      if poll(&fds, 2, -1) < 0 {
        if errno == EINTR { continue }
        return EOF
      }
      if fds[0].revents != 0 {
        while Glibc.read(wake, &byte, 1) == 1 {}
        if prompt.withLock({ $0.interrupted }) {
          rl_replace_line("", 0)
          return 10  // newline: readline returns the (now empty) line
        }
        continue
      }
      if fds[1].revents != 0 {
        let count = Glibc.read(fd, &byte, 1)
        if count == 1 { return Int32(byte) }
        if count < 0 && errno == EINTR { continue }
        return EOF
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

  /// Installs the handlers. SIGINT: the watcher decides (see the type's documentation).
  /// SIGTERM, SIGHUP and crashes: restore the terminal, then die of the same signal.
  static func install(name: String) {
    guard !installed.exchange(true, ordering: .relaxed) else { return }
    deck_rl_configure(strdup(name), complete)
    deck_rl_set_getc(getc)
    var signals: [Int32] = [-1, -1]
    var wake: [Int32] = [-1, -1]
    guard pipe(&signals) == 0, pipe(&wake) == 0 else { return }
    for fd in signals + wake { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(wake[0], F_SETFL, fcntl(wake[0], F_GETFL) | O_NONBLOCK)
    let signalRead = signals[0]
    signalWrite.store(signals[1], ordering: .relaxed)
    wakeRead.store(wake[0], ordering: .relaxed)
    wakeWrite.store(wake[1], ordering: .relaxed)
    DispatchQueue(label: "deck-interrupts").async { watchInterrupts(signalRead) }
    deck_install_sigint { _ in
      var byte: UInt8 = 1
      _ = write(Readline.signalWrite.load(ordering: .relaxed), &byte, 1)
    }
    for fatal in [SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE] {
      signal(fatal) { number in
        deck_rl_restore_terminal()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  /// The watcher thread: one Ctrl-C per byte, each decided under the prompt's lock.
  private static func watchInterrupts(_ fd: Int32) {
    var byte: UInt8 = 0
    while true {
      let count = Glibc.read(fd, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      let endsPrompt = prompt.withLock { state in
        guard state.active else { return false }
        state.interrupted = true
        return true
      }
      if endsPrompt {
        var one: UInt8 = 1
        _ = write(wakeWrite.load(ordering: .relaxed), &one, 1)
      } else if let interrupt = commandInterrupt.withLock({ $0 }) {
        interrupt()
      } else {
        // A one-shot command, no prompt up: Ctrl-C ends deck, as it does before readline loads.
        deck_rl_restore_terminal()
        signal(SIGINT, SIG_DFL)
        raise(SIGINT)
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
  static func read(prompt text: String) -> Input {
    let outer = prompt.withLock { state in
      defer { state = PromptState(active: true) }
      return state
    }
    let pointer = readline(text)
    let interrupted = prompt.withLock { state in
      defer { state = outer }
      return state.interrupted
    }
    defer { free(pointer) }
    if interrupted {
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
