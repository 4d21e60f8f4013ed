import Foundation
import Testing

@testable import DeckCore

/// `--jq` programs that crashed deck (SIGSEGV on `input` and `debug`, an assertion on `include`,
/// libjq's CVE-2024-23337) or grew it without bound (issues 25 and 44): each now ends in a
/// result or an error, and the filter can run again afterwards (the REPL and scripts go on).
/// Runs go to filter children (the `deck` beside the test bundle, built with it).
@Suite("jq: filters that crashed or exhausted memory", .timeLimit(.minutes(2)))
struct JQFilterSafetyTests {
  let document = Data(#"{"name":"keller","items":[1,2,3]}"#.utf8)

  @Test("input, inputs, debug, stderr, input_filename and $__loc__ run without crashing")
  func callbacks() throws {
    let input = try JQFilter("input").run(document)
    #expect(input.lines.isEmpty)
    #expect(input.error == "break", "as the jq command says when there is no more input")
    let inputs = try JQFilter("[inputs]").run(document)
    #expect(inputs == .init(lines: ["[]"]), "\(inputs)")
    #expect(try JQFilter("first(inputs)?, .name").run(document) == .init(lines: ["keller"]))
    let filename = try JQFilter("input_filename").run(document)
    #expect(filename.lines == ["null"] || filename.error == "Unknown input filename")
    #expect(try JQFilter("$__loc__ | .line").run(document).lines == ["1"])
    var debugged: [String] = []
    let filter = try JQFilter(".name | debug")
    let error = filter.run(document, emit: { #expect($0 == "keller") }, debug: { debugged.append($0) })
    #expect(error == nil)
    #expect(debugged == [#"["DEBUG:","keller"]"#])
    // The same filter again, as the REPL would.
    #expect(filter.run(document).lines == ["keller"])
  }

  @Test("include and import are refused at compile time; the words elsewhere are not")
  func modules() throws {
    for program in [
      #"include "/etc/passwd"; ."#, #"import "a" as a; ."#, #"  # comment"# + "\n" + #"import "x" as $d; $d"#,
      #"module {a: "x;y"}; include "b"; ."#, #"module {"search": ("/" | .)}; import "c" as c; ."#,
    ] {
      #expect(throws: JQFilter.Failure(message: JQFilter.importRefused), "\(program)") { try JQFilter(program) }
    }
    #expect(try JQFilter("{import: .name}").run(document).lines == [#"{"import":"keller"}"#])
    #expect(try JQFilter(#".import, "include""#).run(document).lines == ["null", "include"])
    #expect(try JQFilter(#"module {a: 1}; .name"#).run(document).lines == ["keller"])
    // modulemeta finds no module: the library path is empty.
    #expect(try JQFilter(#""passwd" | modulemeta"#).run(document).error != nil)
  }

  @Test("unbounded recursion and huge arrays stop at the memory limit (setrlimit in the child) with a clear error")
  func memory() throws {
    let limits = JQFilter.Limits(outputBytes: 1 << 20, memoryBytes: 64 << 20)
    for program in ["def f: [f]; f", "[range(1e9)]", "reduce range(1e9) as $i ([]; . + [$i]) | length"] {
      let started = Date()
      let run = try JQFilter(program, limits: limits).run(document)
      #expect(run.error == JQFilter.memoryLimitMessage(64 << 20), "\(program)")
      #expect(Date().timeIntervalSince(started) < 30)
    }
  }

  @Test("a value nested a million levels deep is built and freed (libjq recurses: 8 MB of stack was not enough)")
  func deepNesting() throws {
    let run = try JQFilter("reduce range(1000000) as $i (null; [.]) | length").run(document)
    #expect(run == .init(lines: ["1"]))
  }

  @Test("a run that never ends stops when its task is cancelled (Ctrl-C in the REPL)")
  func cancellation() async throws {
    let filter = try JQFilter("range(1e18) | empty")
    let document = document
    let task = Task { filter.run(document) }
    try await Task.sleep(for: .milliseconds(200))
    task.cancel()
    #expect(await task.value == .init(lines: [], error: JQFilter.interrupted))
  }

  @Test("results are handed over as they come, and output past the limit ends the run")
  func output() throws {
    let limits = JQFilter.Limits(outputBytes: 1 << 20, memoryBytes: 512 << 20)
    let filter = try JQFilter("repeat(1)", limits: limits)
    var bytes = 0
    let error = filter.run(document, emit: { bytes += $0.utf8.count + 1 }, debug: { _ in })
    #expect(error == JQFilter.outputLimitMessage(1 << 20))
    #expect(bytes > (1 << 20) - 16 && bytes <= 1 << 20)
    // `debug` counts too.
    var debugged = 0
    let debugging = try JQFilter("repeat(debug)", limits: limits)
    let debugError = debugging.run(document, emit: { _ in }, debug: { debugged += $0.utf8.count + 1 })
    #expect(debugError == JQFilter.outputLimitMessage(1 << 20))
    #expect(debugged <= 1 << 20 && debugged > 0)
    // And the filters work again after.
    #expect(try JQFilter("limit(2; repeat(1))", limits: limits).run(document).lines == ["1", "1"])
    #expect(filter.run(document, emit: { _ in }, debug: { _ in }) == JQFilter.outputLimitMessage(1 << 20))
  }

  @Test(
    "CVE-2024-23337: a literal huge index is refused before the filter runs; a computed one ends the child, not deck")
  func hugeIndex() throws {
    for program in [".[1000000000] = 1", ".a[1e9] = 1", "setpath([1000000000]; 1)", "getpath([\"a\", 100000000])"] {
      let run = try JQFilter(program).run(document)
      #expect(run.lines.isEmpty, "\(program)")
      #expect(run.error?.contains("CVE-2024-23337") == true, "\(program): \(String(describing: run.error))")
    }
    // The index is computed: only the child's limits stand between it and deck.
    let computed = try JQFilter("(1000000000 | floor) as $i | .items[$i] = 1")
    let run = computed.run(document)
    #expect(run.lines.isEmpty)
    let error = try #require(run.error)
    #expect(
      error == JQFilter.memoryLimitMessage(JQFilter.Limits.standard.memoryBytes) || error.contains("crashed libjq"),
      "\(error)")
    // deck (this process) goes on, and so does the filter.
    #expect(try JQFilter(".items[1]").run(document).lines == ["2"])
  }

  @Test("a filter that runs forever stops at its CPU limit (RLIMIT_CPU) with a clear error")
  func cpuLimit() throws {
    let limits = JQFilter.Limits(outputBytes: 1 << 20, memoryBytes: 64 << 20, seconds: 1)
    let started = Date()
    let run = try JQFilter("last(range(1e18))", limits: limits).run(document)
    #expect(run == .init(lines: [], error: JQFilter.timeLimitMessage(1)))
    #expect(Date().timeIntervalSince(started) < 30)
  }

  @Test("the shapes the known CVEs need are refused; the same words elsewhere are not")
  func shapes() {
    for program in [
      ".[1000000000]", ".[33554432] = 0", "$x[1e10]", ".a | .[4e9]?", #"setpath(["a", 1e9]; 1)"#,
      #"delpaths([[ (2e9) ]])"#, "[nan123]", #""nan12" | tonumber"#, #""x \("NaN(1)")" | fromjson"#,
    ] {
      #expect(JQShapes.refusal(program) != nil, "\(program)")
    }
    for program in [
      ".[0]", ".[-1]", "[1000000000]", ".[] | select(.id == 1000000000)", "limit(1000000000; .[])",
      ".[1000000000:]", "nan | isnan", #""banana1""#, ".nan1", "range(1e18) | empty", #"".[1000000000]""#,
      "setpath([\"a\", 3]; 1)", "{a: 1e12}",
    ] {
      #expect(JQShapes.refusal(program) == nil, "\(program)")
    }
  }

  @Test("a string result with line breaks and any bytes comes back whole through the child")
  func framing() throws {
    let run = try JQFilter(#""a\nb\r\nc", ([range(70000)] | length), "\u0000x""#).run(document)
    #expect(run == .init(lines: ["a\nb\r\nc", "70000", "\u{0}x"]))
  }
}
