import CJQ
import DeckSupport
import Dispatch
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A jq program compiled by libjq, as `--jq EXPR` takes it (like gh's `--jq`).
///
/// It is compiled when the option is parsed, so a bad expression is a usage error before any
/// request is sent. libjq's `jq_state` is not thread-safe: each filter owns one, uses it under
/// a lock, and frees it when the filter goes (one per command line, so the REPL and scripts
/// keep nothing from line to line).
///
/// What a filter may do is bounded, so that no filter can take deck (or the REPL, or a
/// script) down with it:
/// - `import` and `include` are refused at compile time (deck reads no jq modules), and the
///   library path is empty (`modulemeta` finds nothing).
/// - `input` and `inputs` have no more inputs (the result is the only input); `debug` writes
///   `["DEBUG:",value]` to stderr, as jq does.
/// - Results are handed over as they come, not collected; a run stops with an error when its
///   output passes ``Limits/outputBytes`` (256 MB) or the process grows by more than
///   ``Limits/memoryBytes`` (512 MB) while it runs (`def f: [f]; f`, `[range(1e9)]`).
public final class JQFilter: Sendable {
  /// A failed compile (jq's own message) or a failed run.
  public struct Failure: Error, CustomStringConvertible, Equatable {
    public let message: String
    public var description: String { message }
  }

  /// What one run may produce and use.
  public struct Limits: Sendable, Equatable {
    /// The results' and `debug` messages' bytes.
    public var outputBytes: Int
    /// How much the process may grow (resident memory) while the filter runs.
    public var memoryBytes: Int
    /// How long a run may take (none for deck: Ctrl-C stops it, one-shot or in the REPL,
    /// where it cancels the line's task; the fuzz target sets one).
    public var seconds: Double?

    /// 512 MB of memory: libjq itself aborts when its stack passes 1 GB (`def f: [f]; f`).
    public static let standard = Limits(outputBytes: 256 << 20, memoryBytes: 512 << 20)

    public init(outputBytes: Int, memoryBytes: Int, seconds: Double? = nil) {
      self.outputBytes = outputBytes
      self.memoryBytes = memoryBytes
      self.seconds = seconds
    }
  }

  /// What a run produced: one line per result, and jq's message for the error that ended it, if any.
  public struct Run: Sendable, Equatable {
    public var lines: [String]
    public var error: String?

    public init(lines: [String], error: String? = nil) {
      self.lines = lines
      self.error = error
    }
  }

  public static let importRefused =
    "jq: import and include are not supported in --jq (deck reads no jq modules); write the definitions into the expression."

  public let expression: String
  public let limits: Limits
  private let state: Mutex<State>

  /// The libjq state and the messages its callbacks collect.
  private struct State {
    var jq: OpaquePointer?
    let messages: Messages
  }

  /// The callbacks' target (passed to libjq as an unretained pointer; the state keeps it alive).
  private final class Messages {
    var lines: [String] = []
  }

  /// Where a run's results go, for as long as the run lasts.
  private final class Sink: @unchecked Sendable {
    var emit: ((String) -> Void)?
    init(_ emit: @escaping (String) -> Void) { self.emit = emit }
  }

  /// One run's output budget, and where its `debug` messages go (the debug callback's target
  /// during the run).
  private final class Budget: @unchecked Sendable {
    /// The run's `jq_state`, as an address: the budget holds the caller's closure, which must
    /// not tie the filter's locked state to the caller's task.
    let jqAddress: UInt
    let limit: Int
    let debug: (String) -> Void
    var produced = 0
    var overflowed = false

    init(jqAddress: UInt, limit: Int, debug: @escaping (String) -> Void) {
      self.jqAddress = jqAddress
      self.limit = limit
      self.debug = debug
    }

    /// Counts `text` and a line break; false (and the run is over) when it passes the limit.
    func take(_ text: String) -> Bool {
      guard !overflowed else { return false }
      produced += text.utf8.count + 1
      if produced > limit { overflowed = true }
      return !overflowed
    }
  }

  public init(_ expression: String, limits: Limits = .standard) throws(Failure) {
    self.expression = expression
    self.limits = limits
    if JQProgram.importsModules(expression) { throw Failure(message: Self.importRefused) }
    guard let jq = jq_init() else { throw Failure(message: "jq: cannot start (out of memory)") }
    let messages = Messages()
    let context = Unmanaged.passUnretained(messages).toOpaque()
    jq_set_error_cb(
      jq,
      { context, message in
        guard let context else { return jv_free(message) }
        Unmanaged<Messages>.fromOpaque(context).takeUnretainedValue().lines.append(JQFilter.text(message))
      }, context)
    // libjq 1.6 calls these without checking for NULL (SIGSEGV on `input` or `debug`).
    // No more inputs, as the jq command says at the end of its input (`input` fails, `inputs` is empty).
    jq_set_input_cb(jq, { _, _ in jv_invalid() }, nil)
    jq_set_debug_cb(jq, Self.debugCallback, nil)
    // No module search path, and origins that name no directory: libjq asserts when they are
    // missing, and `modulemeta` would read files through them.
    jq_set_attr(jq, jv_string("JQ_LIBRARY_PATH"), jv_array())
    jq_set_attr(jq, jv_string("JQ_ORIGIN"), jv_string("/nonexistent/deck-jq"))
    jq_set_attr(jq, jv_string("PROGRAM_ORIGIN"), jv_string("/nonexistent/deck-jq"))
    guard jq_compile(jq, expression) != 0 else {
      var failed: OpaquePointer? = jq
      jq_teardown(&failed)
      // jq's own message, as the jq command prints it (less the padding it ends lines with).
      let message = messages.lines.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        .map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
      throw Failure(message: message.isEmpty ? "jq: cannot compile \(expression)" : message)
    }
    state = Mutex(State(jq: jq, messages: messages))
  }

  deinit {
    state.withLock { jq_teardown(&$0.jq) }
  }

  /// Runs the program on one JSON document and collects its lines (see ``run(_:emit:debug:)``).
  public func run(_ json: Data) -> Run {
    var lines: [String] = []
    let error = run(json, emit: { lines.append($0) }, debug: { _ in })
    return Run(lines: lines, error: error)
  }

  /// Runs the program on one JSON document: strings come out raw (as `jq -r` prints them),
  /// other values as compact JSON, one result per call of `emit`, as they come. `debug` gets
  /// the `debug` builtin's messages. A jq error ends the run (the results before it were
  /// emitted); so does passing a limit. Returns the error's message, nil when the run ended well.
  public func run(_ json: Data, emit: (String) -> Void, debug: @escaping (String) -> Void) -> String? {
    state.withLock { state in
      guard let jq = state.jq else { return "the filter was freed" }
      state.messages.lines.removeAll()
      let input = json.withUnsafeBytes { bytes in
        jv_parse_sized(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count))
      }
      guard jv_get_kind(input) != JV_KIND_INVALID else {
        return "the input is not JSON: " + Self.text(jv_invalid_get_msg(input))
      }
      // The state's address: the closures below hold the caller's, which must not tie the
      // filter's locked state to the caller's task.
      let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(jq)))
      let budget = Budget(jqAddress: address, limit: limits.outputBytes, debug: debug)
      jq_set_debug_cb(jq, Self.debugCallback, Unmanaged.passUnretained(budget).toOpaque())
      defer { jq_set_debug_cb(jq, Self.debugCallback, nil) }
      var error: String?
      let stopped = withoutActuallyEscaping(emit) { emit in
        // On a thread of its own with a large stack: libjq frees a nested value recursively
        // (`reduce range(1e6) as $i (null; [.])` overflowed 8 MB). This thread watches it.
        // The thread holds a box, emptied before this returns (Foundation keeps a thread's
        // block a while after it ends).
        let sink = Sink(emit)
        defer { sink.emit = nil }
        return RunWatch.run(
          limit: limits.memoryBytes, seconds: limits.seconds,
          halt: { OpaquePointer(bitPattern: address).map(Self.halt) }
        ) {
          guard let jq = OpaquePointer(bitPattern: address) else { return }
          error = Self.drain(jq, input: input, budget: budget) { sink.emit?($0) }
        }
      }
      if budget.overflowed { return Self.outputLimitMessage(limits.outputBytes) }
      switch stopped {
      case .memory: return Self.memoryLimitMessage(limits.memoryBytes)
      case .time: return "the filter ran for more than \(limits.seconds ?? 0) s; stopped."
      case .cancelled: return Self.interrupted
      case nil: break
      }
      if error == nil, jq_halted(jq) != 0 {
        // `halt_error`: a non-zero exit code is a failure with its message.
        let code = jq_get_exit_code(jq)
        let failed = jv_get_kind(code) == JV_KIND_NUMBER && jv_number_value(code) != 0
        jv_free(code)
        let message = jq_get_error_message(jq)
        if failed {
          let text = jv_get_kind(message) == JV_KIND_INVALID ? "" : Self.text(jv_copy(message))
          error = "halted" + (text.isEmpty ? "" : ": " + text.trimming(.newlines))
        }
        jv_free(message)
      }
      if error == nil, !state.messages.lines.isEmpty { error = state.messages.lines.joined(separator: "\n") }
      return error
    }
  }

  /// Starts the program on `input` and hands its results to `emit` until it ends, fails or
  /// passes the budget (then it is halted where it is; the next run's jq_start resets it).
  /// The message of the error that ended it, if any.
  private static func drain(_ jq: OpaquePointer, input: jv, budget: Budget, emit: (String) -> Void) -> String? {
    jq_start(jq, input, 0)
    while true {
      let result = jq_next(jq)
      guard jv_get_kind(result) != JV_KIND_INVALID else {
        guard jv_invalid_has_msg(jv_copy(result)) != 0 else {
          jv_free(result)
          return nil
        }
        return text(jv_invalid_get_msg(result))
      }
      let line = text(result)
      guard budget.take(line) else {
        halt(jq)
        return nil
      }
      emit(line)
    }
  }

  /// Stops a running program before its next instruction (libjq asserts it is not halted yet).
  static func halt(_ jq: OpaquePointer) {
    if jq_halted(jq) == 0 { jq_halt(jq, jv_invalid(), jv_invalid()) }
  }

  /// `debug`: `["DEBUG:",value]` to the run's budget (nothing outside a run), as jq prints it.
  private static let debugCallback: jq_msg_cb = { context, value in
    let text = "[\"DEBUG:\"," + JQFilter.json(value) + "]"
    guard let context else { return }
    let budget = Unmanaged<Budget>.fromOpaque(context).takeUnretainedValue()
    if budget.take(text) { return budget.debug(text) }
    // Past the limit: stop the program here (`repeat(debug)` prints nothing else).
    guard let jq = OpaquePointer(bitPattern: budget.jqAddress) else { return }
    halt(jq)
  }

  /// What a run cancelled by its task (Ctrl-C in the REPL) returns.
  public static let interrupted = "interrupted"

  static func outputLimitMessage(_ limit: Int) -> String {
    "the filter's output passed \(limit >> 20) MB, the most one --jq filter may print; narrow the filter (for example with limit(N; …) or first(…))."
  }

  static func memoryLimitMessage(_ limit: Int) -> String {
    "the filter used more than \(limit >> 20) MB of memory, the most one --jq filter may use (unbounded recursion, or a very large array?); stopped."
  }

  /// A value's text (consumes it): a string as is, anything else as compact JSON.
  static func text(_ value: jv) -> String {
    if jv_get_kind(value) == JV_KIND_STRING {
      defer { jv_free(value) }
      let count = Int(jv_string_length_bytes(jv_copy(value)))
      guard let bytes = jv_string_value(value) else { return "" }
      return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
    return json(value)
  }

  /// A value as compact JSON (consumes it).
  static func json(_ value: jv) -> String {
    let dumped = jv_dump_string(value, 0)
    defer { jv_free(dumped) }
    guard let bytes = jv_string_value(dumped) else { return "" }
    return String(cString: bytes)
  }
}

/// Runs a filter on a thread of its own, with a large stack, and watches it from the calling
/// thread: the process's resident memory and the time. Past a limit it halts the filter
/// (`jq_halt`, which libjq checks before each instruction) and waits for it to stop.
private enum RunWatch {
  enum Reason { case memory, time, cancelled }

  /// libjq's recursion (freeing or comparing nested values) needs about 100 bytes a level;
  /// the memory limit allows a few million levels. Only the pages used are ever touched.
  static let stackSize = 1 << 30

  /// Runs `body` to its end; why it was halted, if it was.
  static func run(limit: Int, seconds: Double?, halt: @escaping @Sendable () -> Void, body: @escaping () -> Void)
    -> Reason?
  {
    let work = Work(body)
    guard let thread = work.start(stackSize: stackSize) else {
      // No thread (out of address space?): run here, unwatched, rather than not at all.
      work.body()
      return nil
    }
    defer { work.join(thread) }
    let baseline = residentBytes()
    let deadline = seconds.map { Date(timeIntervalSinceNow: $0) } ?? .distantFuture
    var stopped: Reason?
    while work.finished.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
      guard stopped == nil else { continue }
      if let baseline, let now = residentBytes(), now - baseline > limit {
        stopped = .memory
      } else if Date() > deadline {
        stopped = .time
      } else if Task.isCancelled {
        // Ctrl-C in the REPL cancels the line's task.
        stopped = .cancelled
      } else {
        continue
      }
      halt()
    }
    return stopped
  }

  /// The filter's thread: its body, and a semaphore it signals when done.
  final class Work: @unchecked Sendable {
    let body: () -> Void
    let finished = DispatchSemaphore(value: 0)

    init(_ body: @escaping () -> Void) { self.body = body }

    /// Starts the thread (a POSIX one, to know whether it started and to join it); nil when
    /// it could not start.
    func start(stackSize: Int) -> pthread_t? {
      #if canImport(Glibc)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
          &thread, &attributes,
          { context in
            guard let context else { return nil }
            let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
            work.body()
            work.finished.signal()
            return nil
          }, context)
        guard created == 0 else {
          Unmanaged<Work>.fromOpaque(context).release()
          return nil
        }
        return thread
      #else
        return nil
      #endif
    }

    /// Waits for the thread to end (the filter's state and its closures are free after).
    func join(_ thread: pthread_t) {
      #if canImport(Glibc)
        pthread_join(thread, nil)
      #endif
    }
  }

  /// The process's resident set, from /proc/self/statm (nil where there is none).
  static func residentBytes() -> Int? {
    #if os(Linux)
      let fd = open("/proc/self/statm", O_RDONLY)
      guard fd >= 0 else { return nil }
      defer { close(fd) }
      var buffer = [UInt8](repeating: 0, count: 128)
      let count = read(fd, &buffer, buffer.count)
      guard count > 0 else { return nil }
      let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
      guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
      return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return nil
    #endif
  }
}

/// Reading a jq program's text without compiling it.
enum JQProgram {
  /// Whether the program starts with `import` or `include` directives (after an optional
  /// `module …;`): jq's grammar allows them there only.
  static func importsModules(_ program: String) -> Bool {
    var scanner = Scanner(Array(program.utf8))
    scanner.skipBlank()
    if scanner.word() == "module" {
      scanner.skipPast(UInt8(ascii: ";"))
      scanner.skipBlank()
    } else {
      scanner = Scanner(Array(program.utf8))
      scanner.skipBlank()
    }
    let word = scanner.word()
    return word == "import" || word == "include"
  }

  struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Skips white space and `#` comments.
    mutating func skipBlank() {
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "#") {
          while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
          index += 1
        } else {
          return
        }
      }
    }

    /// The identifier here (letters, digits, `_`), consumed.
    mutating func word() -> String {
      let start = index
      while index < bytes.count,
        bytes[index] == UInt8(ascii: "_") || (bytes[index] < 0x80 && isalnum(Int32(bytes[index])) != 0)
      {
        index += 1
      }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Skips to just after `end` outside strings and brackets (strings may nest `\(…)`).
    mutating func skipPast(_ end: UInt8) {
      var depth = 0
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == end, depth == 0 { return }
        switch byte {
        case UInt8(ascii: "\""): skipString()
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        case UInt8(ascii: "#"):
          while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        default: break
        }
      }
    }

    /// Skips the rest of a string whose opening quote was consumed.
    mutating func skipString() {
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\"") { return }
        guard byte == UInt8(ascii: "\\"), index < bytes.count else { continue }
        let escaped = bytes[index]
        index += 1
        if escaped == UInt8(ascii: "(") { skipPast(UInt8(ascii: ")")) }
      }
    }
  }
}
