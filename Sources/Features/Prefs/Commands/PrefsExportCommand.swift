import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import PrefsRules

struct PrefsExportCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "export", _superCommandName: "deck",
    abstract: "Print the preferences as one JSON document (for deck prefs import).",
    discussion: HelpText.discussion(
      """
      {"version": 1, "categories": {"player": {…}, "school": {…}, …}}: every category (or the
      one --category names) as the user sees it, stored or the defaults. A stored document that
      does not validate is exported as the defaults, with a warning. The operator's "copy a
      profile from staging to a sandbox":

      $ deck --env staging prefs export > profile.json
      $ deck --env sandbox prefs import profile.json
      """,
      exits: [.usage(), .unavailable(), .unauthorized()]))

  @OptionGroup var global: GlobalOptions

  @Option(help: "Only this category.")
  var category: PrefsCategory?

  func run(_ context: DeckContext) async throws {
    let service = PrefsService(context: context)
    var values: [PrefsValue] = []
    for category in category.map({ [$0] }) ?? PrefsCategory.allCases {
      let fetched = try await service.fetch(category)
      for warning in fetched.warnings { context.output.info("warning: \(warning)") }
      values.append(fetched.value)
    }
    let document = PrefsExport(values)
    try context.output.emit(document) {
      context.output.line(String(decoding: try DeckJSON.encoder.encode(document), as: UTF8.self))
    }
  }
}

struct PrefsImportCommand: DeckCommand, NamingFiles {
  static let files = FileArguments(readsArgument: true)

  static let configuration = CommandConfiguration(
    commandName: "import", _superCommandName: "deck",
    abstract: "Write every category of an export document (FILE, or - for stdin).",
    discussion: HelpText.discussion(
      """
      Reads a document deck prefs export wrote (version 1). Every category in it is checked first
      (types, unknown keys, values, as set does); if any is wrong, nothing is sent and every
      problem is named (exit 64; the first 20, then how many more). A school preference without
      an id or a priority is a new one, as in deck prefs edit: it gets an id, and the priorities
      after the highest given, in the file's order. Then each category is written (a category equal to what is
      stored is skipped) and its changes recorded in the history. A parent cannot import player
      details (exit 77, nothing sent).
      """,
      exits: [
        .failure("the file cannot be read"), .usage("the document has problems (nothing was sent)"), .rejected(),
        .unavailable(), .unauthorized("not signed in, or a parent importing player details"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The export document, or - for stdin.", valueName: "file"), completion: .file())
  var file: String

  struct CategoryResult: Encodable {
    var category: PrefsCategory
    var changes: [FieldChange]
    @ExplicitNull var historyProblem: String?
  }

  func run(_ context: DeckContext) async throws {
    let data = try read()
    let document: PrefsExport
    do {
      document = try PrefsExport.parse(data) { UUID().uuidString.lowercased() }
    } catch {
      throw DeckError.usage("The document has problems; nothing was sent:\n" + PrefsProblem.lines(error.listed))
    }
    guard !document.values.isEmpty else { throw DeckError.usage("The document has no categories; nothing was sent.") }
    let service = PrefsService(context: context)
    for value in document.values { try await service.requireWritable(value.category) }
    var results: [CategoryResult] = []
    for value in document.values {
      let fetched = try await service.fetch(value.category)
      if fetched.readOnly { throw PrefsService.readOnly(email: nil) }
      guard !fetched.value.changes(to: value).isEmpty || !fetched.isStored || !fetched.warnings.isEmpty else {
        results.append(CategoryResult(category: value.category, changes: [], historyProblem: nil))
        continue
      }
      let saved = try await service.save(PrefsUpdate.stamped(value), over: fetched.value)
      results.append(
        CategoryResult(category: value.category, changes: saved.changes, historyProblem: saved.historyProblem))
    }
    try context.output.emit(results) {
      for result in results {
        let count = result.changes.count
        context.output.line(
          "\(result.category.rawValue): \(count == 0 ? "unchanged" : "\(count) change\(count == 1 ? "" : "s")")")
      }
    }
    for result in results {
      if let problem = result.historyProblem {
        context.output.info(
          "warning: \(result.category.rawValue) is saved, but its history entry was not recorded: \(problem)")
      }
    }
  }

  /// The document (at most 1 MB), or stdin's for "-".
  func read() throws -> Data {
    try InputFile.read(
      file, what: "the export document", hint: "Give the path of a file deck prefs export wrote, or - for stdin.")
  }
}
