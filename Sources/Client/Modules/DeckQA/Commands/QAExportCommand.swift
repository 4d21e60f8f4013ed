import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials

/// `deck qa export DIR`: every shipped module file, for a team to keep, read and extend.
struct QAExportCommand: DeckCommand, NamingFiles {
  static let files = FileArguments(writesArgument: true)

  static let configuration = CommandConfiguration(
    commandName: "export", _superCommandName: "deck",
    abstract: "Write every shipped scenario file and rows.yaml to a directory.",
    discussion: HelpText.discussion(
      """
      Writes DIR/MODULE/FILE.yaml for each shipped file (DIR/prefs/school.yaml, \
      DIR/prefs/rows.yaml, …), creating the directories. deck qa run DIR runs them; a failure \
      then names the exported file, and deck qa coverage DIR counts them. Nothing is written \
      when a file is there already, unless --force.
      """,
      exits: [
        .failure("a file is there already (without --force), or a file could not be written"),
        .usage("a bad argument"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The directory to write to.", valueName: "dir"), completion: .directory)
  var directory: String

  @Flag(help: "Replace files that are there already.")
  var force = false

  func run(_ context: DeckContext) async throws {
    let files = try ScenarioCatalog.files()
    let base = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
    let targets = files.map { (path: "\(base)/\($0.path)", yaml: $0.yaml) }
    if !force, let there = targets.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
      throw DeckError.failure(
        "\(TerminalText.sanitize(there.path)) is there already; nothing was written.",
        hint:
          "Export to a new directory, or replace the files with: deck qa export \(ShellWords.quote(directory)) --force")
    }
    for target in targets {
      do {
        try FileManager.default.createDirectory(
          atPath: PathText.parent(target.path), withIntermediateDirectories: true)
        try AtomicFile.write(Data(target.yaml.utf8), to: target.path, mode: 0o644)
      } catch {
        let reason = (error as? DeckError)?.message ?? "\(error)"
        throw DeckError.failure(
          "Cannot write \(TerminalText.sanitize(target.path)): \(reason)",
          hint: "Check the directory and its permissions.")
      }
    }
    let output = context.output
    try output.emit(targets.map(\.path)) {
      output.info(
        "Wrote \(targets.count) files to \(TerminalText.sanitize(directory)); run them with: deck qa run \(ShellWords.quote(directory))"
      )
    }
  }
}
