import BrokerageRules
import DeckCore
import DeckSupport
import FoundationEssentials
import Synchronization
import WorkspaceRules

/// The interactive onboarding on a terminal: readline prompts in the spec's step order (name,
/// use case, workspace name, industry, brokerage for Real Estate, invites for team), then a
/// summary and a confirmation. Only what the flags left open is asked.
struct OnboardingWizard {
  let context: DeckContext
  let prompt: Prompt
  var draft: OnboardingDraft
  let asksBrokerage: Bool
  let asksInvites: Bool
  let asksReferralCode: Bool

  /// Prompts need a person at a terminal (stdin and stdout both terminals) and a line reader.
  static func prompt(_ context: DeckContext) -> Prompt? {
    guard TerminalInput.stdinIsTerminal, context.output.stdoutIsTerminal, let reader = context.session.lineReader
    else { return nil }
    return Prompt(reader: reader)
  }

  static let cancelled = DeckError(.failure, "Onboarding cancelled; nothing was sent.")

  mutating func run() async throws -> OnboardingDraft {
    let output = context.output
    output.info("Onboarding: answer the questions (Tab completes, Ctrl-D cancels).")
    if draft.firstName == nil { draft.firstName = try await required("First name: ") }
    if draft.lastName == nil { draft.lastName = try await required("Last name: ") }
    if draft.useCase == nil { draft.useCase = try await useCase() }
    if draft.workspaceName == nil {
      draft.workspaceName = BrokerageRules.sanitize(try await required("Workspace name: "))
    }
    if draft.industry == nil { draft.setIndustry(try await industry()) }
    if draft.brokerage.showBrokerageField && asksBrokerage { try await brokerage() }
    if draft.useCase == .team && asksInvites { try await invites() }
    if asksReferralCode {
      let code = try await ask("Referral code (optional, Enter to skip): ")
      let trimmed = code.trimming(.whitespaces)
      draft.referralCode = trimmed.isEmpty ? nil : trimmed
    }
    output.line()
    output.fields(draft.summary)
    output.line()
    let submit = await prompt.confirm("Submit?")
    try Task.checkCancellation()
    guard submit else { throw Self.cancelled }
    return draft
  }

  // MARK: Steps

  /// One answer. Ctrl-D cancels the wizard; so does Ctrl-C in the REPL (which cancels the
  /// command: the prompt's answer is then dropped).
  func ask(_ prompt: String, complete: (@Sendable (String) -> [String])? = nil) async throws -> String {
    let answer = await self.prompt.ask(prompt, complete: complete)
    try Task.checkCancellation()
    guard let answer else { throw Self.cancelled }
    return answer
  }

  func required(_ prompt: String) async throws -> String {
    while true {
      let answer = try await ask(prompt)
      let trimmed = answer.trimming(.whitespaces)
      if !trimmed.isEmpty { return trimmed }
      context.output.info("This one is required.")
    }
  }

  func useCase() async throws -> UseCase {
    let names = UseCase.allCases.map(\.rawValue)
    while true {
      let answer = try await ask("Use case (solo or team): ") { line in Self.matching(names, prefix: line) }
      if let useCase = UseCase(rawValue: answer.trimming(.whitespaces).lowercased()) { return useCase }
      context.output.info("Answer solo or team.")
    }
  }

  func industry() async throws -> Industry {
    let names = Industry.allCases.map(\.rawValue)
    while true {
      let answer = try await ask("Industry (Tab lists them): ") { line in Self.matching(names, prefix: line) }
      if let industry = Industry(matching: answer) { return industry }
      context.output.info("Choose one of: \(names.joined(separator: ", ")).")
    }
  }

  /// The brokerage typeahead (brokerage-onboarding.md, sections 4 and 8): Tab offers live
  /// suggestions and, when none matches the text exactly, `Add "<text>" as new brokerage`.
  /// Enter on a suggestion's name selects it; other text is matched against fresh results,
  /// and a list to choose from (or add new) is shown when it matches none exactly.
  mutating func brokerage() async throws {
    let typeahead = BrokerageTypeahead(context: context, state: draft.brokerage)
    let answer = try await ask("Brokerage (optional; Tab suggests, Enter to skip): ") { line in
      typeahead.complete(line)
    }
    var state = typeahead.state.withLock { $0 }
    let text = BrokerageRules.sanitize(answer)
    defer { draft.brokerage = state }
    guard !text.isEmpty else {
      state.onBrokerageTextChanged("")
      return
    }
    if let added = BrokerageTypeahead.addNewText(in: text) {
      state.onBrokerageTextChanged(added)
      state.onSelectAddNew()
      return
    }
    guard let query = state.onBrokerageTextChanged(text) else { return }
    do {
      let results = try await typeahead.search(query)
      state.onSearchResults(results, for: query)
    } catch {
      state.onSearchFailed(for: query)
      context.output.info("Couldn’t load suggestions; \"\(text)\" is kept as a new brokerage.")
    }
    if let match = BrokerageRules.exactMatch(text, in: state.suggestions) {
      state.onSelectSuggestion(match)
      return
    }
    guard !state.suggestions.isEmpty else {
      state.onSelectAddNew()
      return
    }
    let suggestions = state.suggestions
    let rows = suggestions.map(\.name) + [state.addNewLabel]
    for (index, row) in rows.enumerated() { context.output.line("  \(index + 1)) \(row)") }
    while true {
      let choice = try await ask("Choose 1-\(rows.count) (Enter: \(rows.count)): ")
      let trimmed = choice.trimming(.whitespaces)
      let number = trimmed.isEmpty ? rows.count : Int(trimmed)
      guard let number, (1...rows.count).contains(number) else { continue }
      if number == rows.count {
        state.onSelectAddNew()
      } else {
        state.onSelectSuggestion(suggestions[number - 1])
      }
      return
    }
  }

  mutating func invites() async throws {
    while true {
      let answer = try await ask("Invite emails (comma-separated, Enter for none): ")
      var candidate = draft
      do {
        candidate.removeInvites()
        try candidate.addInvites(OnboardingRules.splitEmailList(answer))
        draft = candidate
        return
      } catch {
        context.output.info(error.message)
      }
    }
  }

  static func matching(_ values: [String], prefix: String) -> [String] {
    let wanted = prefix.trimming(.whitespaces).lowercased()
    return values.filter { $0.lowercased().hasPrefix(wanted) }
  }
}

/// The live brokerage suggestions behind the wizard's Tab key, on the brokerage view model.
final class BrokerageTypeahead: Sendable {
  let context: DeckContext
  let state: Mutex<BrokerageState>
  /// How long Tab waits for suggestions before offering only what it has.
  static let budget: Duration = .milliseconds(2500)

  init(context: DeckContext, state: BrokerageState) {
    self.context = context
    self.state = Mutex(state)
  }

  /// Candidates for the whole line: suggestion names, then the add-new row when no
  /// suggestion matches the text exactly (ignoring case). Runs on the prompt's thread.
  func complete(_ line: String) -> [String] {
    if Self.addNewText(in: line) != nil { return [] }
    guard let query = state.withLock({ $0.onBrokerageTextChanged(line) }) else { return [] }
    let results = searchBlocking(query)
    let snapshot = state.withLock { state in
      if let results { state.onSearchResults(results, for: query) } else { state.onSearchFailed(for: query) }
      return state
    }
    var candidates = snapshot.suggestions.map(\.name)
    if snapshot.showsAddNew { candidates.append(snapshot.addNewLabel) }
    return candidates
  }

  func search(_ query: String) async throws -> [BrokerageSuggestion] {
    try await WorkspaceService(context: context).brokerageSuggestions(query)
  }

  /// The search from readline's completion callback, which is synchronous: nil when it fails
  /// or takes longer than the budget.
  private func searchBlocking(_ query: String) -> [BrokerageSuggestion]? {
    Budgeted.run(within: Self.budget) { [self] in try await search(query) }
  }

  /// The text of an `Add "<text>" as new brokerage` row, or nil for anything else.
  static func addNewText(in line: String) -> String? {
    let trimmed = line.trimming(.whitespaces)
    let prefix = "Add \""
    let suffix = "\" as new brokerage"
    guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(suffix), trimmed.count > prefix.count + suffix.count else {
      return nil
    }
    return String(trimmed.dropFirst(prefix.count).dropLast(suffix.count))
  }
}
