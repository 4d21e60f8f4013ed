import DeckSupport
import Dispatch
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Glibc)
  typealias SignalHandler = __sighandler_t
#else
  typealias SignalHandler = sig_t
#endif

/// A key from a raw terminal: what full-screen programs (the kiosk, the quiz) react to.
public enum Key: Equatable, Sendable {
  case character(Character)
  case enter, backspace, escape, tab
  case up, down, left, right
  /// Ctrl and a letter (lower case), e.g. `.control("r")`; Ctrl-C is `.control("c")`.
  case control(Character)
}

/// What the terminal reports.
public enum TerminalEvent: Sendable {
  case keys([Key])
  /// The window changed size (SIGWINCH).
  case resize
  /// SIGINT from outside (Ctrl-C itself arrives as a key in raw mode).
  case interrupt
  /// stdin closed.
  case endOfInput
}

/// The terminal in raw mode for full-screen programs (the kiosk, the quiz): no echo, no line editing, keys one by
/// one, the alternate screen, no cursor. `restore()` puts everything back, and so do SIGTERM,
/// SIGHUP and SIGQUIT (then the process dies of the signal, as it would have); SIGINT and
/// SIGWINCH become events. The previous signal handlers (the REPL's) come back on restore.
public final class RawTerminal: Sendable {
  private let previousHandlers: [Int32: UInt]
  private let wakeRead: Int32
  private let stopReading = Atomic<Bool>(false)
  private let restored = Atomic<Bool>(false)
  private let readerRunning = Atomic<Bool>(false)

  /// Switches the terminal (stdin and stdout) to full-screen raw mode. `purpose` names the
  /// program in the error shown when there is no terminal.
  public init(purpose: String = "This full-screen view") throws {
    guard isatty(0) == 1, isatty(1) == 1 else {
      throw DeckError.usage("\(purpose) needs a terminal on stdin and stdout.")
    }
    var original = termios()
    guard tcgetattr(0, &original) == 0 else {
      throw DeckError.failure("Cannot read the terminal's settings: \(String(cString: strerror(errno))).")
    }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else {
      throw DeckError.failure("Cannot create a pipe: \(String(cString: strerror(errno))).")
    }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
    wakeRead = fds[0]
    TerminalRestore.saved = original
    TerminalRestore.wakeWrite.store(fds[1], ordering: .sequentiallyConsistent)

    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }

    var handlers: [Int32: UInt] = [:]
    for number in [SIGTERM, SIGHUP, SIGQUIT] {
      handlers[number] = Self.install(number) { number in
        TerminalRestore.restoreFromSignal()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
    handlers[SIGINT] = Self.install(SIGINT) { _ in TerminalRestore.wake(UInt8(ascii: "I")) }
    handlers[SIGWINCH] = Self.install(SIGWINCH) { _ in TerminalRestore.wake(UInt8(ascii: "W")) }
    previousHandlers = handlers

    TerminalRestore.active.store(true, ordering: .sequentiallyConsistent)
    tcsetattr(0, TCSAFLUSH, &raw)
    Self.output(TerminalRestore.enterSequence)
  }

  deinit { restore() }

  /// Puts the terminal back as it was (idempotent) and stops reading keys.
  public func restore() {
    guard !restored.exchange(true, ordering: .sequentiallyConsistent) else { return }
    stopReading.store(true, ordering: .sequentiallyConsistent)
    // Let the key reader stop (it polls every 100 ms), so that it takes no key meant for
    // whatever reads the terminal next (the REPL).
    for _ in 0..<30 where readerRunning.load(ordering: .sequentiallyConsistent) { usleep(10_000) }
    if TerminalRestore.active.exchange(false, ordering: .sequentiallyConsistent) {
      Self.output(String(decoding: TerminalRestore.leaveBytes, as: UTF8.self))
      tcsetattr(0, TCSAFLUSH, &TerminalRestore.saved)
    }
    for (number, handler) in previousHandlers {
      _ = signal(number, unsafeBitCast(handler, to: SignalHandler?.self))
    }
    let write = TerminalRestore.wakeWrite.exchange(-1, ordering: .sequentiallyConsistent)
    if write >= 0 { close(write) }
    // The reader thread closes its end when it stops.
  }

  /// Columns and rows.
  public var size: (columns: Int, rows: Int) { Self.currentSize }

  /// Columns and rows of the terminal on stdout; 80×24 when there is none or it does not say.
  public static var currentSize: (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// Reads keys and signals on a thread of its own until `restore()`.
  public func startReading(_ handler: @escaping @Sendable (TerminalEvent) -> Void) {
    let wakeRead = wakeRead
    readerRunning.store(true, ordering: .sequentiallyConsistent)
    DispatchQueue(label: "deck-terminal-keys").async { [self] in
      defer { readerRunning.store(false, ordering: .sequentiallyConsistent) }
      var descriptors = [
        pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      var buffer = [UInt8](repeating: 0, count: 256)
      var decoder = KeyDecoder()
      while !stopReading.load(ordering: .sequentiallyConsistent) {
        let ready = poll(&descriptors, 2, 100)
        if ready <= 0 { continue }
        if descriptors[1].revents & Int16(POLLIN) != 0 {
          let count = read(wakeRead, &buffer, buffer.count)
          for byte in buffer.prefix(max(0, count)) {
            handler(byte == UInt8(ascii: "I") ? .interrupt : .resize)
          }
        }
        if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
          let count = read(0, &buffer, buffer.count)
          if count < 0 && errno == EINTR { continue }
          guard count > 0 else {
            handler(.endOfInput)
            break
          }
          let keys = decoder.decode(Array(buffer.prefix(count)))
          if !keys.isEmpty { handler(.keys(keys)) }
        }
      }
      close(wakeRead)
    }
  }

  /// Writes to stdout, all of it.
  public static func output(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return write(1, base + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return
      }
      offset += written
    }
  }

  /// Installs a handler and returns the previous one (as bits, to keep this type Sendable).
  private static func install(_ number: Int32, _ handler: @escaping @convention(c) (Int32) -> Void) -> UInt {
    let previous: SignalHandler? = signal(number, handler)
    return unsafeBitCast(previous, to: UInt.self)
  }
}

/// What the signal handlers need, in globals: they cannot capture context.
enum TerminalRestore {
  /// The terminal's settings before raw mode. Written once before the handlers are installed.
  nonisolated(unsafe) static var saved = termios()
  /// Raw mode is on (the handlers restore only then, and only once).
  static let active = Atomic<Bool>(false)
  /// The write end of the pipe that wakes the key reader (SIGINT, SIGWINCH).
  static let wakeWrite = Atomic<Int32>(-1)
  /// Alternate screen, hide the cursor, clear.
  static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
  /// Reset colours, show the cursor, leave the alternate screen.
  static let leaveBytes: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// Called from a signal handler: only async-signal-safe calls (tcsetattr, write).
  static func restoreFromSignal() {
    guard active.exchange(false, ordering: .sequentiallyConsistent) else { return }
    tcsetattr(0, TCSANOW, &saved)
    leaveBytes.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
  }

  static func wake(_ byte: UInt8) {
    var value = byte
    let descriptor = wakeWrite.load(ordering: .sequentiallyConsistent)
    if descriptor >= 0 { _ = write(descriptor, &value, 1) }
  }
}
