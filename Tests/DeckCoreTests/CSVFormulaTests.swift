import DeckSupport
import Foundation
import Synchronization
import Testing

@testable import DeckCore

/// `--format csv` and text a spreadsheet would run as a formula (issue 25: server names such as
/// `=HYPERLINK(…)` were written as they came). OWASP's advice: a leading `'`.
@Suite("CSV formula injection")
struct CSVFormulaTests {
  struct Brokerage: Encodable {
    var name: String
    var score: Double
  }

  static let hostile = [
    Brokerage(name: #"=HYPERLINK("http://evil.example","x")"#, score: -2),
    Brokerage(name: "+1+cmd|' /C calc'!A0", score: -0.5),
    Brokerage(name: "-2+3", score: 3),
    Brokerage(name: "@SUM(1)", score: 1e21),
    Brokerage(name: "\tTab", score: 0),
    Brokerage(name: "\rReturn", score: 0),
    Brokerage(name: "Plain = fine", score: 1),
  ]

  @Test("cells that start with =, +, -, @, tab or CR get a leading '; numbers stay numbers")
  func neutralized() throws {
    #expect(
      try CSVText.render(Self.hostile)
        == """
        name,score
        "'=HYPERLINK(""http://evil.example"",""x"")",-2
        '+1+cmd|' /C calc'!A0,-0.5
        '-2+3,3
        '@SUM(1),1e+21
        '\tTab,0
        "'\rReturn",0
        Plain = fine,1

        """)
    // Keys from the data too, and text that only looks like a number.
    #expect(try CSVText.render(["=k": "-1", "n": "x"]) == "field,value\n'=k,'-1\nn,x\n")
    #expect(try CSVText.render([-1, 2]) == "value\n-1\n2\n")
  }

  @Test("--csv-raw writes them as they are")
  func raw() throws {
    #expect(
      try CSVText.render([Self.hostile[0], Self.hostile[2]], raw: true)
        == "name,score\n\"=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\",-2\n-2+3,3\n")
  }

  @Test("the global option reaches the output: --csv-raw parses, and emit honours it")
  func option() throws {
    #expect(try GlobalOptions.parse(["--csv-raw"]).csvRaw)
    #expect(!GlobalOptions.defaults.csvRaw)
    for raw in [false, true] {
      let text = Mutex("")
      let output = Output(
        stdoutIsTerminal: false, stderrIsTerminal: false, colorEnabled: false, format: .csv, csvRaw: raw,
        writeOut: { out in text.withLock { $0 += out } }, writeErr: { _ in })
      try output.emit([Self.hostile[3]]) {}
      let stream = output.records()
      try stream.emit(Self.hostile[2]) {}
      try stream.emit(Self.hostile[3]) {}
      let expected = raw ? "@SUM(1)" : "'@SUM(1)"
      #expect(
        text.withLock { $0 }
          == "name,score\n\(expected),1e+21\nname,score\n\(raw ? "" : "'")-2+3,3\n\(expected),1e+21\n")
      #expect(output.formatted(.csv, csvRaw: raw).csvRaw == raw)
    }
  }

  @Test("a quote followed by a combining mark is quoted and doubled (fuzz target csv, regression-quote-combining)")
  func quoteWithCombiningMark() throws {
    #expect(
      try CSVText.render(["a\"\u{301}b", "\u{749}\"\u{759}"]) == "value\n\"a\"\"\u{301}b\"\n\"\u{749}\"\"\u{759}\"\n")
  }
}
