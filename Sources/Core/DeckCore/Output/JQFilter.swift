import CJQ
import Foundation
import Synchronization

/// A jq program compiled by libjq, as `--jq EXPR` takes it (like gh's `--jq`).
///
/// It is compiled when the option is parsed, so a bad expression is a usage error before any
/// request is sent. libjq's `jq_state` is not thread-safe: each filter owns one, uses it under
/// a lock, and frees it when the filter goes (one per command line, so the REPL and scripts
/// keep nothing from line to line).
public final class JQFilter: Sendable {
  /// A failed compile (jq's own message) or a failed run.
  public struct Failure: Error, CustomStringConvertible, Equatable {
    public let message: String
    public var description: String { message }
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

  public let expression: String
  private let state: Mutex<State>

  /// The libjq state and the messages its error callback collects.
  private struct State {
    var jq: OpaquePointer?
    let messages: Messages
  }

  /// The error callback's target (passed to libjq as an unretained pointer; the state keeps it alive).
  private final class Messages {
    var lines: [String] = []
  }

  public init(_ expression: String) throws(Failure) {
    self.expression = expression
    guard let jq = jq_init() else { throw Failure(message: "jq: cannot start (out of memory)") }
    let messages = Messages()
    jq_set_error_cb(
      jq,
      { context, message in
        guard let context else { return jv_free(message) }
        Unmanaged<Messages>.fromOpaque(context).takeUnretainedValue().lines.append(JQFilter.text(message))
      }, Unmanaged.passUnretained(messages).toOpaque())
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

  /// Runs the program on one JSON document: strings come out raw (as `jq -r` prints them),
  /// other values as compact JSON, one result per line. A jq error ends the run; the results
  /// before it are kept.
  public func run(_ json: Data) -> Run {
    state.withLock { state in
      guard let jq = state.jq else { return Run(lines: [], error: "the filter was freed") }
      state.messages.lines.removeAll()
      let input = json.withUnsafeBytes { bytes in
        jv_parse_sized(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count))
      }
      guard jv_get_kind(input) != JV_KIND_INVALID else {
        return Run(lines: [], error: "the input is not JSON: " + Self.text(jv_invalid_get_msg(input)))
      }
      jq_start(jq, input, 0)
      var run = Run(lines: [])
      while true {
        let result = jq_next(jq)
        guard jv_get_kind(result) != JV_KIND_INVALID else {
          if jv_invalid_has_msg(jv_copy(result)) != 0 {
            run.error = Self.text(jv_invalid_get_msg(result))
          } else {
            jv_free(result)
          }
          break
        }
        run.lines.append(Self.text(result))
      }
      if run.error == nil, jq_halted(jq) != 0 {
        // `halt_error`: a non-zero exit code is a failure with its message.
        let code = jq_get_exit_code(jq)
        let failed = jv_get_kind(code) == JV_KIND_NUMBER && jv_number_value(code) != 0
        jv_free(code)
        let message = jq_get_error_message(jq)
        if failed {
          let text = jv_get_kind(message) == JV_KIND_INVALID ? "" : Self.text(jv_copy(message))
          run.error = "halted" + (text.isEmpty ? "" : ": " + text.trimmingCharacters(in: .newlines))
        }
        jv_free(message)
      }
      if run.error == nil, !state.messages.lines.isEmpty { run.error = state.messages.lines.joined(separator: "\n") }
      return run
    }
  }

  /// A value's text (consumes it): a string as is, anything else as compact JSON.
  static func text(_ value: jv) -> String {
    if jv_get_kind(value) == JV_KIND_STRING {
      defer { jv_free(value) }
      let count = Int(jv_string_length_bytes(jv_copy(value)))
      guard let bytes = jv_string_value(value) else { return "" }
      return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
    let dumped = jv_dump_string(value, 0)
    defer { jv_free(dumped) }
    guard let bytes = jv_string_value(dumped) else { return "" }
    return String(cString: bytes)
  }
}
