import CJQ
import DeckSupport
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A jq program, as `--jq EXPR` takes it (like gh's `--jq`), on libjq.
///
/// It is compiled when the option is parsed, so a bad expression is a usage error before any
/// request is sent. It runs in a process of its own, a filter child (deck itself, `JQChild`),
/// limited by setrlimit before it reads the program: libjq 1.6 has bugs a filter can reach
/// (`.[1000000000] = 1` is CVE-2024-23337's SIGSEGV, and Debian 12's libjq carries more), and
/// no filter may take deck, the REPL, a script or a QA run down with it. A crash, the memory
/// limit or the CPU limit ends the child only, and the run ends with an error that says which.
/// Before that, the shapes the known bugs need are refused (`JQShapes`).
///
/// What a run may do is bounded (`JQEngine`): no modules, no more inputs, its output up to
/// ``Limits/outputBytes`` (256 MB), its memory up to ``Limits/memoryBytes`` (512 MB of
/// address space more than the child starts with, the most libjq's stack and values may take:
/// `def f: [f]; f`, `[range(1e9)]`), and its CPU time up to ``Limits/seconds``.
public final class JQFilter: Sendable {
  public typealias Failure = JQFailure

  /// What one run may produce and use.
  public struct Limits: Sendable, Equatable {
    /// The results' and `debug` messages' bytes.
    public var outputBytes: Int
    /// How much memory the filter's process may take beyond what it starts with.
    public var memoryBytes: Int
    /// The CPU time a run may take (whole seconds, at least 1: RLIMIT_CPU's unit). Ctrl-C stops
    /// a run before that, one-shot or in the REPL.
    public var seconds: Double

    /// 512 MB of memory and a minute of CPU time, for `--jq`.
    public static let standard = Limits(outputBytes: 256 << 20, memoryBytes: 512 << 20, seconds: 60)

    public init(outputBytes: Int, memoryBytes: Int, seconds: Double = 60) {
      self.outputBytes = outputBytes
      self.memoryBytes = memoryBytes
      self.seconds = seconds
    }

    /// A QA scenario's jq expectations and captures: 10 s of CPU time each (`qa run` goes on
    /// to its report).
    public static let expectation = Limits(outputBytes: 256 << 20, memoryBytes: 512 << 20, seconds: 10)

    /// `seconds` as RLIMIT_CPU takes it.
    var cpuSeconds: Int { max(1, Int(seconds.rounded(.up))) }
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

  public static let importRefused = JQEngine.importRefused

  public let expression: String
  public let limits: Limits

  public init(_ expression: String, limits: Limits = .standard) throws(Failure) {
    self.expression = expression
    self.limits = limits
    var compiled = try JQEngine.compile(expression)
    jq_teardown(&compiled.jq)
  }

  /// Whether filter children run this program (deck's `main` says so: it dispatches
  /// `JQChild.flag`); otherwise (the tests' process) they run the `deck` beside it, as SwiftPM
  /// builds them.
  private static let childIsThisProgram = Atomic<Bool>(false)

  /// Runs filter children as this program, which dispatches `JQChild.flag` first thing.
  public static func runChildrenAsThisProgram() {
    childIsThisProgram.store(true, ordering: .relaxed)
  }

  static func evaluatorProgram() -> String? {
    guard let own = LocalProcess.ownExecutable() else { return nil }
    if childIsThisProgram.load(ordering: .relaxed) { return own }
    let directory = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let sibling = directory + "/deck"
    return LocalProcess.isExecutableFile(sibling) ? sibling : nil
  }

  /// Runs the program on one JSON document and collects its lines (see ``run(_:emit:debug:)``).
  public func run(_ json: Data) -> Run {
    var lines: [String] = []
    let error = run(json, emit: { lines.append($0) }, debug: { _ in })
    return Run(lines: lines, error: error)
  }

  /// Runs the program on one JSON document, in a filter child: strings come out raw (as
  /// `jq -r` prints them), other values as compact JSON, one result per call of `emit`, as they
  /// come. `debug` gets the `debug` builtin's messages. A jq error ends the run (the results
  /// before it were emitted); so do a limit, a crash, and the task's cancellation (Ctrl-C in
  /// the REPL: ``interrupted``). Returns the error's message, nil when the run ended well.
  public func run(_ json: Data, emit: (String) -> Void, debug: @escaping (String) -> Void) -> String? {
    if let refusal = JQShapes.refusal(expression) { return refusal }
    guard let program = Self.evaluatorProgram() else {
      return "deck cannot find its own program to run the filter in; reinstall deck (scripts/install)."
    }
    let code = Array(expression.utf8)
    let input = JQFrames.littleEndian(UInt32(clamping: code.count)) + code + Array(json)
    var decoder = JQFrames.Decoder()
    var end: String?
    var environment = ProcessEnvironment.current()
    // A crash ends the child at once (no backtracer), and its threads share one malloc arena
    // (no 64 MB reservations counted against its address space).
    environment["SWIFT_BACKTRACE"] = "enable=no"
    environment["MALLOC_ARENA_MAX"] = "1"
    let ending: FilterProcess.Ending
    do {
      ending = try FilterProcess.run(
        program,
        arguments: [
          JQChild.flag, "--memory", "\(limits.memoryBytes)", "--output", "\(limits.outputBytes)",
          "--seconds", "\(limits.cpuSeconds)",
        ],
        environment: environment, input: input, deadline: nil, isCancelled: { Task.isCancelled }
      ) { bytes in
        decoder.append(bytes)
        while let frame = decoder.next() {
          switch frame.kind {
          case .result: emit(frame.text)
          case .debug: debug(frame.text)
          case .end: end = frame.text
          }
        }
        return true
      }
    } catch {
      return "cannot start the filter's process: \(error.reason)."
    }
    if let end { return end.isEmpty ? nil : end }
    return failure(ending)
  }

  /// Why a child ended without its last frame.
  func failure(_ ending: FilterProcess.Ending) -> String {
    if ending.stopped == .cancelled || ending.signal == SIGINT { return Self.interrupted }
    if ending.signal == SIGXCPU || ending.stopped == .deadline
      || (ending.signal == SIGKILL && ending.cpuSeconds >= Double(limits.cpuSeconds))
    {
      return Self.timeLimitMessage(limits.cpuSeconds)
    }
    if ending.errors.contains("allocate memory") || ending.peakBytes >= limits.memoryBytes / 4 * 3 {
      return Self.memoryLimitMessage(limits.memoryBytes)
    }
    if let signal = ending.signal {
      return
        "the filter crashed libjq (\(FilterProcess.signalName(signal))) in the process deck runs filters in; nothing else was affected. libjq 1.6 has known bugs (CVE-2024-23337 and others): rewrite the filter."
    }
    let said = ending.errors.split(separator: "\n").first.map { ": " + TerminalText.sanitize(String($0)) } ?? ""
    return "the filter's process ended with exit code \(ending.exitCode ?? 0) before its results were complete\(said)."
  }

  /// What a run cancelled by its task (Ctrl-C in the REPL) returns.
  public static let interrupted = "interrupted"

  static func outputLimitMessage(_ limit: Int) -> String { JQEngine.outputLimitMessage(limit) }

  static func memoryLimitMessage(_ limit: Int) -> String {
    "the filter ran out of memory: it needed more than \(limit >> 20) MB, the most one --jq filter may use (unbounded recursion, or a very large array?); stopped."
  }

  static func timeLimitMessage(_ seconds: Int) -> String {
    "the filter ran over \(seconds) s of CPU time, the most one --jq filter may use (an endless loop, or range over a huge number?); stopped."
  }
}
