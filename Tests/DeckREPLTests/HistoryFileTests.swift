import DeckREPL
import TestFixtures
import Testing

@Suite("REPL history file")
struct HistoryFileTests {
  @Test func historySizeIsClamped() throws {
    #expect(HistoryFile.limit(fromVariable: "100000000000000000") == HistoryFile.maxLimit)
    #expect(HistoryFile.limit(fromVariable: "100000000000000000000000000000") == HistoryFile.maxLimit)
    #expect(HistoryFile.limit(fromVariable: "0") == 1)
    #expect(HistoryFile.limit(fromVariable: "-5") == 5000)
    #expect(HistoryFile.limit(fromVariable: "abc") == 5000)
    #expect(HistoryFile.limit(fromVariable: nil) == 5000)
    #expect(HistoryFile.limit(fromVariable: "200") == 200)
    // Before: 256 * limit overflowed and trapped on the first append.
    let directory = try TemporaryDirectory()
    let history = HistoryFile(path: directory.path + "/state/history", limit: Int.max)
    try history.append("fixture search alpha")
    #expect(history.load() == ["fixture search alpha"])
  }
}
