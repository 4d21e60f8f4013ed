import CJQ
import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libjq itself: compiling a program, and running it on one document. deck runs programs only
/// in a filter child (`JQChild`, under its rlimits), never in deck's own process: libjq 1.6
/// has bugs a filter can reach (CVE-2024-23337's SIGSEGV, and more). Compiling stays in deck
/// (a syntax error is found while options are parsed); no known bug is in the compiler.
///
/// What a program may do is bounded:
/// - `import` and `include` are refused (deck reads no jq modules), and the library path is
///   empty (`modulemeta` finds nothing).
/// - `input` and `inputs` have no more inputs (the result is the only input); `debug` gives
///   `["DEBUG:",value]`, as jq prints it.
/// - Results are handed over as they come; the run stops when its output (results and `debug`
///   messages) passes its budget.
enum JQEngine {
  /// A compiled program (free it with `jq_teardown`) and the messages its callbacks collect.
  struct Compiled {
    var jq: OpaquePointer?
    let messages: Messages
  }

  /// The error callback's target (passed to libjq unretained; `Compiled` keeps it alive).
  final class Messages {
    var lines: [String] = []
  }

  static let importRefused =
    "jq: import and include are not supported in --jq (deck reads no jq modules); write the definitions into the expression."

  /// Compiles `expression`, or throws jq's own message (as the jq command prints it).
  static func compile(_ expression: String) throws(JQFailure) -> Compiled {
    if JQProgram.importsModules(expression) { throw JQFailure(message: importRefused) }
    guard let jq = jq_init() else { throw JQFailure(message: "jq: cannot start (out of memory)") }
    let messages = Messages()
    let context = Unmanaged.passUnretained(messages).toOpaque()
    jq_set_error_cb(
      jq,
      { context, message in
        guard let context else { return jv_free(message) }
        Unmanaged<Messages>.fromOpaque(context).takeUnretainedValue().lines.append(JQEngine.text(message))
      }, context)
    // libjq 1.6 calls these without checking for NULL (SIGSEGV on `input` or `debug`).
    // No more inputs, as the jq command says at the end of its input (`input` fails, `inputs` is empty).
    jq_set_input_cb(jq, { _, _ in jv_invalid() }, nil)
    jq_set_debug_cb(jq, debugCallback, nil)
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
      throw JQFailure(message: message.isEmpty ? "jq: cannot compile \(expression)" : message)
    }
    return Compiled(jq: jq, messages: messages)
  }

  /// One run's output budget, and where its results and `debug` messages go.
  final class Budget {
    let jq: OpaquePointer
    let limit: Int
    let emit: (String) -> Void
    let debug: (String) -> Void
    var produced = 0
    var overflowed = false

    init(jq: OpaquePointer, limit: Int, emit: @escaping (String) -> Void, debug: @escaping (String) -> Void) {
      self.jq = jq
      self.limit = limit
      self.emit = emit
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

  /// Runs a compiled program on one JSON document: strings come out raw (as `jq -r` prints
  /// them), other values as compact JSON, one result per call of `emit`, as they come; `debug`
  /// gets the `debug` builtin's messages. A jq error ends the run (the results before it were
  /// emitted); so does passing `outputBytes`. Returns the error's message, nil when the run
  /// ended well. It runs on a thread of its own with a large stack: libjq frees a nested value
  /// recursively (`reduce range(1e6) as $i (null; [.])` overflows a stack of 8 MB).
  static func run(
    _ compiled: Compiled, on json: [UInt8], outputBytes: Int, emit: @escaping (String) -> Void,
    debug: @escaping (String) -> Void
  ) -> String? {
    guard let jq = compiled.jq else { return "the filter was freed" }
    compiled.messages.lines.removeAll()
    let input = json.withUnsafeBytes { bytes in
      jv_parse_sized(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count))
    }
    guard jv_get_kind(input) != JV_KIND_INVALID else {
      return "the input is not JSON: " + text(jv_invalid_get_msg(input))
    }
    let budget = Budget(jq: jq, limit: outputBytes, emit: emit, debug: debug)
    jq_set_debug_cb(jq, debugCallback, Unmanaged.passUnretained(budget).toOpaque())
    defer { jq_set_debug_cb(jq, debugCallback, nil) }
    var error: String?
    BigStackThread.run { error = drain(jq, input: input, budget: budget) }
    if budget.overflowed { return outputLimitMessage(outputBytes) }
    if error == nil, jq_halted(jq) != 0 {
      // `halt_error`: a non-zero exit code is a failure with its message.
      let code = jq_get_exit_code(jq)
      let failed = jv_get_kind(code) == JV_KIND_NUMBER && jv_number_value(code) != 0
      jv_free(code)
      let message = jq_get_error_message(jq)
      if failed {
        let text = jv_get_kind(message) == JV_KIND_INVALID ? "" : text(jv_copy(message))
        error = "halted" + (text.isEmpty ? "" : ": " + text.trimming(.newlines))
      }
      jv_free(message)
    }
    if error == nil, !compiled.messages.lines.isEmpty { error = compiled.messages.lines.joined(separator: "\n") }
    return error
  }

  /// Starts the program on `input` and hands its results to the budget's `emit` until it ends,
  /// fails or passes the budget (then it is halted where it is). The message of the error that
  /// ended it, if any.
  private static func drain(_ jq: OpaquePointer, input: jv, budget: Budget) -> String? {
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
      budget.emit(line)
    }
  }

  /// Stops a running program before its next instruction (libjq asserts it is not halted yet).
  static func halt(_ jq: OpaquePointer) {
    if jq_halted(jq) == 0 { jq_halt(jq, jv_invalid(), jv_invalid()) }
  }

  /// `debug`: `["DEBUG:",value]` to the run's budget (nothing outside a run), as jq prints it.
  private static let debugCallback: jq_msg_cb = { context, value in
    let text = "[\"DEBUG:\"," + JQEngine.json(value) + "]"
    guard let context else { return }
    let budget = Unmanaged<Budget>.fromOpaque(context).takeUnretainedValue()
    if budget.take(text) { return budget.debug(text) }
    // Past the limit: stop the program here (`repeat(debug)` prints nothing else).
    halt(budget.jq)
  }

  static func outputLimitMessage(_ limit: Int) -> String {
    "the filter's output passed \(limit >> 20) MB, the most one --jq filter may print; narrow the filter (for example with limit(N; …) or first(…))."
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

/// A compile that failed (jq's own message), or a run refused before it started.
public struct JQFailure: Error, CustomStringConvertible, Equatable {
  public let message: String
  public var description: String { message }

  public init(message: String) { self.message = message }
}

/// Runs a body on a POSIX thread with a large stack and waits for it.
enum BigStackThread {
  /// libjq's recursion (freeing or comparing nested values) needs about 100 bytes a level:
  /// 256 MB is a couple of million levels. Only the pages used are ever touched, but the whole
  /// stack counts in the filter child's address-space limit (`JQChild`).
  static let stackSize = 256 << 20

  static func run(_ body: @escaping () -> Void) {
    final class Box {
      let body: () -> Void
      init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    let created = pthread_create(
      &thread, &attributes,
      { context in
        guard let context else { return nil }
        Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        return nil
      }, context)
    guard created == 0 else {
      // No thread (out of address space?): run here, on the ordinary stack.
      Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
      return
    }
    #if canImport(Glibc)
      pthread_join(thread, nil)
    #else
      if let thread { pthread_join(thread, nil) }
    #endif
  }
}
