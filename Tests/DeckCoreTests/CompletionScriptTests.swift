import ArgumentParser
import DeckCore
import Testing

/// A command named deck with a live value, as the generated scripts see deck's own.
private struct LiveDeck: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "deck")
  @Argument(completion: .custom { _, _, _ in [] }) var name: String
}

@Suite("Completion scripts and the completed word")
struct CompletionScriptTests {
  @Test func bashMatchesLiveValuesItselfAndDefinesTheMatcher() {
    let script = CompletionScripts.adjusted(LiveDeck.completionScript(for: .bash), for: .bash)
    #expect(script.contains("__deck_add_live_completions() {"))
    #expect(script.contains(#"__deck_add_live_completions "$(__deck_custom_complete ---completion"#))
    // A new argument-parser that changed the call would leave compgen's case-sensitive,
    // backslash-blind filter in place: the adjustment must have found every call.
    #expect(!script.contains(#"__deck_add_completions -W "$(__deck_custom_complete"#))
  }

  @Test func zshFoldsCaseAndCountsTheCursorInQuotedWords() {
    let script = CompletionScripts.adjusted(LiveDeck.completionScript(for: .zsh), for: .zsh)
    #expect(script.contains("__deck_complete_live() {"))
    #expect(script.contains("m:{[:lower:][:upper:]}={[:upper:][:lower:]}"))
    #expect(script.contains(#"__deck_complete_live "${completions[@]:0:-1}""#))
    #expect(script.contains(#"printf %s "$((${#QIPREFIX} + ${#IPREFIX} + ${#PREFIX}))""#))
    #expect(!script.contains("${(z)LBUFFER}"))
  }

  @Test func fishIsLeftAsGenerated() {
    let script = LiveDeck.completionScript(for: .fish)
    #expect(CompletionScripts.adjusted(script, for: .fish) == script)
  }

  @Test(arguments: [
    (#"Keller\ Williams\ R"#, "Keller Williams R"),
    (#""Keller Wi"#, "Keller Wi"),
    (#"'Keller Wi"#, "Keller Wi"),
    (#""O'Brien"#, "O'Brien"),
    ("kel", "kel"),
    ("", ""),
  ])
  func bashAndZshWordsAreUnquoted(raw: String, typed: String) {
    #expect(CompletionWord.typed(raw, shell: "bash", shellVersion: "5.2.15") == typed)
    #expect(CompletionWord.typed(raw, shell: "zsh", shellVersion: "5.9") == typed)
    #expect(CompletionWord.typed(raw, shell: "fish", shellVersion: "4.0.1") == typed)
  }

  @Test func fish3AndTheREPLPassWordsAlreadyUnquoted() {
    // fish 3's `commandline -o` unquotes tokens; a value's own backslash must survive.
    #expect(CompletionWord.typed(#"C:\deals"#, shell: "fish", shellVersion: "3.6.0") == #"C:\deals"#)
    #expect(CompletionWord.typed(#"O'Brien"#, shell: nil, shellVersion: nil) == "O'Brien")
  }
}
