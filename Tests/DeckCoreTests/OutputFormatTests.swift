import DeckCore
import DeckSupport
import Foundation
import Synchronization
import Testing
import Yams

/// The output path's pure parts: CSV, YAML, jq, null-keeping JSON and `emit` itself.
@Suite("Output formats")
struct OutputFormatTests {
  struct Brokerage: Encodable {
    var id: String
    var name: String
  }

  struct Status: Encodable {
    var screen: String
    @ExplicitNull var store: String?
    var accepts: [String]
    var timings: Timings
    var note: String?
  }

  struct Timings: Encodable {
    var waitMs: Int
    var totalMs: Int
  }

  @Test("CSV: a header row, then a row per record; commas, quotes and line breaks are quoted as RFC 4180 says")
  func csvQuoting() throws {
    let rows = [
      Brokerage(id: "1", name: "Royal LePage Your Community Realty, Brokerage"),
      Brokerage(id: "2", name: "The \"Best\" Realty"),
      Brokerage(id: "3", name: "Two\nLines"),
      Brokerage(id: "4", name: "Plain"),
    ]
    #expect(
      try CSVText.render(rows)
        == """
        id,name
        1,"Royal LePage Your Community Realty, Brokerage"
        2,"The ""Best"" Realty"
        3,"Two
        Lines"
        4,Plain

        """)
  }

  @Test("CSV: one record is field,value rows; nested objects flatten, null is empty, a list is its JSON")
  func csvOfOneRecord() throws {
    let status = Status(
      screen: "idle", store: nil, accepts: ["poll", "re-pair"], timings: Timings(waitMs: 5, totalMs: 12), note: nil)
    #expect(
      try CSVText.render(status)
        == """
        field,value
        accepts,"[""poll"",""re-pair""]"
        screen,idle
        store,
        timings.totalMs,12
        timings.waitMs,5

        """)
  }

  @Test("CSV: records with different fields share one header; an empty list prints nothing")
  func csvUnionOfColumns() throws {
    struct Row: Encodable {
      var a: Int
      var b: String?
    }
    #expect(try CSVText.render([Row(a: 1, b: nil), Row(a: 2, b: "x")]) == "a,b\n1,\n2,x\n")
    #expect(try CSVText.render([Row(a: 1, b: "x"), Row(a: 2, b: nil)]) == "a,b\n1,x\n2,\n")
    #expect(try CSVText.render([Row]()) == "")
    #expect(try CSVText.render(["x", "y,z"]) == "value\nx\n\"y,z\"\n")
  }

  @Test("CSV on a terminal drops control characters but keeps line breaks")
  func csvForTerminal() throws {
    let row = [Brokerage(id: "1", name: "evil\u{1B}]0;title\u{07} name\nnext")]
    #expect(try CSVText.render(row, forTerminal: true) == "id,name\n1,\"evil]0;title name\nnext\"\n")
  }

  @Test("YAML: the JSON's data and key order; text that would read as another type is quoted")
  func yaml() throws {
    struct Record: Encodable {
      var name: String
      var count: Int
      var ratio: Double
      var active: Bool
      @ExplicitNull var missing: String?
      var looksLikeBool: String
      var looksLikeNumber: String
      var empty: String
      var tags: [String]
    }
    let record = Record(
      name: "Keller Williams, Realty", count: 3, ratio: 0.5, active: true, missing: nil, looksLikeBool: "true",
      looksLikeNumber: "42", empty: "", tags: ["a", "b"])
    let text = try YAMLText.render(record)
    #expect(
      text == """
        active: true
        count: 3
        empty: ''
        looksLikeBool: 'true'
        looksLikeNumber: '42'
        missing: null
        name: Keller Williams, Realty
        ratio: 0.5
        tags:
        - a
        - b

        """)
    let parsed = try #require(try Yams.load(yaml: text) as? [String: Any])
    #expect(parsed["looksLikeBool"] as? String == "true")
    #expect(parsed["looksLikeNumber"] as? String == "42")
    #expect(parsed["count"] as? Int == 3)
    #expect(parsed["missing"] is NSNull || parsed["missing"] == nil)
  }

  @Test("ExplicitNull keeps a null key where synthesized Encodable leaves it out, and decodes a missing key")
  func explicitNull() throws {
    let status = Status(screen: "idle", store: nil, accepts: [], timings: Timings(waitMs: 0, totalMs: 0), note: nil)
    let json = String(decoding: try DeckJSON.compactEncoder.encode(status), as: UTF8.self)
    #expect(json == #"{"accepts":[],"screen":"idle","store":null,"timings":{"totalMs":0,"waitMs":0}}"#)
    struct Read: Decodable, Equatable {
      @ExplicitNull var value: Int?
    }
    #expect(try DeckJSON.decoder.decode(Read.self, from: Data(#"{}"#.utf8)) == Read(value: nil))
    #expect(try DeckJSON.decoder.decode(Read.self, from: Data(#"{"value":null}"#.utf8)) == Read(value: nil))
    #expect(try DeckJSON.decoder.decode(Read.self, from: Data(#"{"value":7}"#.utf8)) == Read(value: 7))
  }

  @Test("jq: a bad expression fails to compile with jq's own message")
  func jqCompileErrors() {
    let syntax = #expect(throws: JQFilter.Failure.self) { try JQFilter(".[0") }
    #expect(syntax?.message.hasPrefix("jq: error: syntax error") == true, "\(syntax?.message ?? "")")
    #expect(syntax?.message.hasSuffix("jq: 1 compile error") == true)
    let unknown = #expect(throws: JQFilter.Failure.self) { try JQFilter("nosuchfunction") }
    #expect(unknown?.message.contains("nosuchfunction/0 is not defined") == true)
  }

  @Test("jq: strings print raw, other values as compact JSON, one result per line")
  func jqResults() throws {
    let input = Data(#"[{"id":"1","name":"A, \"quoted\"\nname"},{"id":"2","name":"B"}]"#.utf8)
    #expect(try JQFilter(".[0].name").run(input) == .init(lines: ["A, \"quoted\"\nname"]))
    #expect(try JQFilter(".[].id").run(input) == .init(lines: ["1", "2"]))
    #expect(try JQFilter(".[1]").run(input) == .init(lines: [#"{"id":"2","name":"B"}"#]))
    #expect(try JQFilter("length, empty, null").run(input) == .init(lines: ["2", "null"]))
    let failed = try JQFilter(".[0], .foo").run(input)
    #expect(failed.lines.count == 1, "the results before the error are kept")
    #expect(failed.error?.hasPrefix("Cannot index array with") == true, "jq's message: \(failed.error ?? "")")
  }

  @Test("jq: one filter runs again and again (a stream), and from many tasks at once")
  func jqReuseAndConcurrency() async throws {
    let filter = try JQFilter(".n * 2")
    let lines = await withTaskGroup(of: [String].self) { group in
      for index in 0..<40 {
        group.addTask { filter.run(Data(#"{"n":\#(index)}"#.utf8)).lines }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    #expect(Set(lines) == Set((0..<40).map { String($0 * 2) }))
  }

  // MARK: emit

  /// An output that records stdout and stderr.
  final class Captured: Sendable {
    let out = Mutex("")
    let err = Mutex("")
    func output(_ format: OutputFormat, jq: JQFilter? = nil, terminal: Bool = false) -> Output {
      Output(
        stdoutIsTerminal: terminal, stderrIsTerminal: false, colorEnabled: false, format: format, jq: jq,
        writeOut: { text in self.out.withLock { $0 += text } }, writeErr: { text in self.err.withLock { $0 += text } })
    }
  }

  @Test("line, info, error and trace print no control characters but line breaks and tabs; deck's styles stay")
  func textLosesControlCharacters() {
    let captured = Captured()
    let output = Output(
      stdoutIsTerminal: true, stderrIsTerminal: true, colorEnabled: true,
      writeOut: { text in captured.out.withLock { $0 += text } },
      writeErr: { text in captured.err.withLock { $0 += text } })
    let evil = "a\u{1B}]0;t\u{07}\u{1B}[2Jb\u{9B}c\r\n\td"
    let shown = "a]0;t[2Jbc\n\td\n"
    output.line(evil)
    output.line("INFP\u{1B}[5m", style: .bold)
    output.info(evil)
    output.error(evil)
    output.trace(evil)
    #expect(captured.out.withLock { $0 } == shown + "\u{1B}[1mINFP[5m\u{1B}[0m\n")
    #expect(captured.err.withLock { $0 } == shown + "\u{1B}[31merror:\u{1B}[0m " + shown + shown)
  }

  @Test("JSON keeps a server's text: C0 escaped by JSON, DEL and C1 escaped too on a terminal only")
  func jsonEscapesC1OnATerminal() throws {
    let value = ["name": "a\u{1B}[2Jb\u{9B}31mc\u{7F}"]
    let piped = Captured()
    try piped.output(.json).emit(value) {}
    #expect(piped.out.withLock { $0 } == #"{"name":"a\u001b[2Jb"# + "\u{9B}31mc\u{7F}" + #""}"# + "\n")
    let terminal = Captured()
    try terminal.output(.json, terminal: true).emit(value) {}
    let shown = terminal.out.withLock { $0 }
    #expect(shown.contains(#""a\u001b[2Jb\u009b31mc\u007f""#), "\(shown)")
    let decoded = try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: String]
    #expect(decoded == value, "the same document")
  }

  @Test("emit: table runs the closure; the other formats print the data and nothing else")
  func emitChoosesTheFormat() throws {
    let rows = [Brokerage(id: "1", name: "A")]
    func run(_ format: OutputFormat, jq: JQFilter? = nil, terminal: Bool = false) throws -> (String, String) {
      let captured = Captured()
      let output = captured.output(format, jq: jq, terminal: terminal)
      try output.emit(rows) {
        output.info("for a person")
        output.table(["NAME", "ID"], rows.map { [$0.name, $0.id] })
      }
      return (captured.out.withLock { $0 }, captured.err.withLock { $0 })
    }
    #expect(try run(.table) == ("NAME  ID\nA     1\n", "for a person\n"))
    #expect(try run(.json) == (#"[{"id":"1","name":"A"}]"# + "\n", ""))
    #expect(try run(.json, terminal: true).0 == "[\n  {\n    \"id\" : \"1\",\n    \"name\" : \"A\"\n  }\n]\n")
    #expect(try run(.yaml) == ("- id: '1'\n  name: A\n", ""))
    #expect(try run(.csv) == ("id,name\n1,A\n", ""))
    #expect(try run(.table, jq: JQFilter(".[0].name")) == ("A\n", ""), "--jq implies JSON")
  }

  @Test("emit: a failing jq program is a failure (exit 1) after the results it gave")
  func emitJQFailure() throws {
    let captured = Captured()
    let output = captured.output(.json, jq: try JQFilter(".[0].id, .x"))
    let error = #expect(throws: DeckError.self) { try output.emit([Brokerage(id: "1", name: "A")]) {} }
    #expect(error?.exitCode == 1)
    #expect(error?.message.contains("Cannot index array") == true)
    #expect(captured.out.withLock { $0 } == "1\n")
  }

  @Test("records: JSON Lines, YAML documents, CSV rows under one header")
  func records() throws {
    func stream(_ format: OutputFormat, jq: JQFilter? = nil) throws -> String {
      let captured = Captured()
      let records = captured.output(format, jq: jq, terminal: true).records()
      for index in 1...2 {
        try records.emit(
          Status(screen: "s\(index)", store: nil, accepts: [], timings: .init(waitMs: index, totalMs: 9))
        ) {}
      }
      return captured.out.withLock { $0 }
    }
    #expect(
      try stream(.json)
        == #"{"accepts":[],"screen":"s1","store":null,"timings":{"totalMs":9,"waitMs":1}}"# + "\n"
        + #"{"accepts":[],"screen":"s2","store":null,"timings":{"totalMs":9,"waitMs":2}}"# + "\n")
    #expect(
      try stream(.csv) == "accepts,screen,store,timings.totalMs,timings.waitMs\n[],s1,,9,1\n[],s2,,9,2\n")
    #expect(try stream(.yaml).components(separatedBy: "---\n").count == 3)
    #expect(try stream(.json, jq: JQFilter(".screen")) == "s1\ns2\n")
  }
}

@Suite("JSON nulls put back")
struct JSONNullsTests {
  @Test("a null goes where the path's parents exist and its key does not; present values stay")
  func fill() throws {
    let text = #"{"a":{"b":1},"list":[{"x":1},{"x":2,"y":3}],"keep":"v"}"#
    let filled = JSONNulls.fill(Data(text.utf8), [["a", "c"], ["list", "*", "y"], ["keep"], ["missing", "deep"]])
    #expect(
      String(decoding: filled, as: UTF8.self)
        == #"{"a":{"b":1,"c":null},"keep":"v","list":[{"x":1,"y":null},{"x":2,"y":3}]}"#)
    #expect(JSONNulls.fill(Data("not json".utf8), [["a"]]) == Data("not json".utf8))
  }
}
