import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import PrefsRules

struct PrefsEdit: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "edit", _superCommandName: "deck",
    abstract: "Edit a category as commented YAML in $VISUAL or $EDITOR, like kubectl edit.",
    discussion: HelpText.discussion(
      """
      Opens the current values in your editor ($VISUAL, else $EDITOR, else vi), each field with a
      comment saying what it accepts. When you save and quit, deck reads the file back and
      checks it; if anything is wrong the file opens again with the problems as comments at the
      top, your changes kept (if it comes back as it was when it had them, deck stops with them
      and exit 64). A file over 1 MB, or with more than 100000 values once its YAML aliases are
      expanded, is refused before it is read. Then what changed is sent and recorded in the history. An
      unchanged file sends nothing; an empty file cancels. Works in the REPL too: the terminal
      goes to the editor and comes back.

      For school preferences the list's order is the priority; an item without an id is new.
      """,
      exits: [
        .failure("the editor failed"),
        .usage("the file still had problems when saved unchanged, or came back as it was with them (nothing was sent)"),
        .rejected(), .unavailable(), .unauthorized("not signed in, or a parent editing the player details"),
      ]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var target: CategoryOption

  func run(_ context: DeckContext) async throws {
    let category = target.category
    let update = PrefsUpdate(context: context, category: category)
    try await update.service.requireWritable(category)
    let fetched = try await update.service.fetch(category)
    if fetched.readOnly { throw PrefsService.readOnly(email: nil) }
    for warning in fetched.warnings { context.output.info("warning: \(warning)") }

    let environment = try context.environment().name
    let original = PrefsEditDocument.render(fetched.value, owner: fetched.owner, environment: environment)
    let file = try EditFile(name: "\(category.rawValue).yaml")
    try file.write(original)
    let editor = ExternalEditor(environment: context.session.processEnvironment)
    var shown = original
    // What the editor returned last time, when it had problems.
    var rejected: (text: String, problems: String)?
    while true {
      try await editor.edit(file.path)
      let text = try file.read()
      if let rejected, text == rejected.text {
        // An editor that writes the same file each time would be reopened forever (as kubectl
        // does, stop): the same problems again.
        throw DeckError.usage(
          "The file came back unchanged from the last attempt, with its problems: "
            + rejected.problems + ". Nothing was sent.",
          hint: "Your version is kept in \(file.path).")
      }
      if PrefsEditDocument.isEmpty(text) {
        file.remove()
        return try cancelled(context, fetched, "the file is empty")
      }
      if text == shown {
        guard shown == original else {
          throw DeckError.usage(
            "The file still has the problems listed at its top; nothing was sent.",
            hint: "Your version is kept in \(file.path).")
        }
        file.remove()
        return try cancelled(context, fetched, "the file is unchanged")
      }
      switch PrefsEditDocument.parse(text, as: category) {
      case .success(let value):
        file.remove()
        guard !fetched.value.changes(to: value).isEmpty || !fetched.warnings.isEmpty else {
          return try cancelled(context, fetched, "no value changed")
        }
        try await update.save(value, over: fetched)
        return
      case .failure(let validation):
        rejected = (text, validation.cappedSummary)
        shown = PrefsEditDocument.render(
          fetched.value, owner: fetched.owner, environment: environment, problems: validation.messages, body: text)
        try file.write(shown)
      }
    }
  }

  func cancelled(_ context: DeckContext, _ fetched: FetchedPrefs, _ reason: String) throws {
    let view = PrefsWriteView(
      category: fetched.category, changes: [], data: fetched.value, fitScoreRecalculated: false, historyProblem: nil)
    try context.output.emit(view) { context.output.info("Edit cancelled: \(reason); nothing was sent.") }
  }
}
