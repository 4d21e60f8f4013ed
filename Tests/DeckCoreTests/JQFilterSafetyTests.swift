import Foundation
import Testing

@testable import DeckCore

/// `--jq` programs that crashed deck (SIGSEGV on `input` and `debug`, an assertion on `include`) or grew it without bound (issue 25): each now ends in a
/// result or an error, and the filter can run again afterwards (the REPL and scripts go on).
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

  @Test("unbounded recursion and huge arrays stop at the memory limit with a clear error")
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
}
