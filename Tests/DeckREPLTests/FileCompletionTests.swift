import ArgumentParser
import DeckCore
import Foundation
import Testing

@testable import DeckREPL

/// Tab on a word that names a file offers the files there, as a shell would: the REPL used to
/// offer nothing for `--answers ` or `qa export `, whose values are files and directories.
@Suite("File completion in the REPL")
struct FileCompletionTests {
  struct Submit: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "submit")
    @Option(completion: .file(extensions: ["json"])) var answers: String
    @Option(completion: .file()) var report: String?
    @Argument(completion: .directory) var directory: String?
  }

  struct Root: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "deck", subcommands: [Submit.self])
  }

  /// A directory holding `answers.json`, `answers.csv`, `archive/`, `.hidden.json`.
  func fixture() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deck-files-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: directory + "/archive", withIntermediateDirectories: true)
    for name in ["answers.json", "answers.csv", ".hidden.json", "archive/old.json"] {
      try Data("{}".utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
    }
    return directory
  }

  var engine: CompletionEngine {
    CompletionEngine(
      tree: CommandTree.of(Root.self), dynamic: { _, _, _, _, _ in [] },
      paths: { PathCompletion.candidates(prefix: $0, kind: $1, home: nil) })
  }

  @Test func aFileOptionOffersTheFilesOfItsExtensionsAndTheDirectoriesToGoInto() throws {
    let directory = try fixture()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(
      engine.candidates(words: ["submit", "--answers"], current: directory + "/a")
        == [directory + "/answers.json", directory + "/archive/"])
    #expect(
      engine.candidates(words: ["submit", "--answers"], current: directory + "/archive/") == [
        directory + "/archive/old.json"
      ])
    #expect(
      engine.candidates(words: ["submit"], current: "--answers=" + directory + "/ans")
        == ["--answers=" + directory + "/answers.json"])
    #expect(
      engine.candidates(words: ["submit", "--report"], current: directory + "/answers.")
        == [directory + "/answers.csv", directory + "/answers.json"], "no extensions: any file")
  }

  @Test func aDirectoryArgumentOffersDirectoriesOnly() throws {
    let directory = try fixture()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(engine.candidates(words: ["submit"], current: directory + "/") == [directory + "/archive/"])
  }

  @Test func hiddenEntriesOnlyWhenTheWordStartsWithADotAndTildeIsHome() throws {
    let directory = try fixture()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(
      PathCompletion.candidates(prefix: directory + "/", kind: .anyFile, home: nil)
        == [directory + "/answers.csv", directory + "/answers.json", directory + "/archive/"])
    #expect(
      PathCompletion.candidates(prefix: directory + "/.", kind: .files(extensions: ["json"]), home: nil)
        == [directory + "/.hidden.json"])
    #expect(
      PathCompletion.candidates(prefix: "~/answers.j", kind: .anyFile, home: directory) == ["~/answers.json"],
      "the word keeps its ~/ as typed")
    #expect(PathCompletion.candidates(prefix: directory + "/nothing/", kind: .anyFile, home: nil).isEmpty)
  }
}
