import DeckSupport
import Testing

@Suite("Shell words")
struct ShellWordsTests {
  @Test(arguments: [
    ("fixture search alpha", ["fixture", "search", "alpha"]),
    ("  a   b  ", ["a", "b"]),
    ("say 'two words' \"and more\"", ["say", "two words", "and more"]),
    (#"a\ b c"#, ["a b", "c"]),
    (#""a \"q\" \$ \x""#, [#"a "q" $ \x"#]),
    ("a # a comment 'with a quote", ["a"]),
    ("a#b", ["a#b"]),
    ("''", [""]),
    ("'it'\\''s'", ["it's"]),
  ])
  func splitsLikeAShell(line: String, words: [String]) {
    #expect(ShellWords.split(line) == .words(words))
  }

  // Script mode's `let` variables: expanded unquoted and in double quotes, never in single
  // quotes or after a backslash; a value is one word, never split or scanned again.
  @Test(arguments: [
    ("inspect $sid", ["inspect", "sess_1"]),
    ("inspect ${sid}x \"$sid\"", ["inspect", "sess_1x", "sess_1"]),
    ("say $two", ["say", "a b 'c' $sid"]),
    ("say '$sid' \\$sid \"\\$sid\"", ["say", "$sid", "$sid", "$sid"]),
    ("say $ $1 $. a$", ["say", "$", "$1", "$.", "a$"]),
    ("say $empty", ["say", ""]),
    ("say \"$sid\"-done $sid# not a comment", ["say", "sess_1-done", "sess_1#", "not", "a", "comment"]),
    ("say $sid # a comment $undefined", ["say", "sess_1"]),
  ])
  func expandsVariables(line: String, words: [String]) throws {
    let variables = ["sid": "sess_1", "two": "a b 'c' $sid", "empty": ""]
    #expect(try ShellWords.expand(line, variables: variables) == words)
  }

  @Test func anUndefinedOrMalformedReferenceIsAnError() {
    #expect(throws: ShellWords.ExpansionError.undefined("nope")) { try ShellWords.expand("say $nope", variables: [:]) }
    #expect(throws: ShellWords.ExpansionError.undefined("nope")) {
      try ShellWords.expand("say \"${nope}\"", variables: [:])
    }
    #expect(throws: ShellWords.ExpansionError.badSubstitution("a b")) {
      try ShellWords.expand("say ${a b}", variables: ["a": "1"])
    }
    #expect(throws: ShellWords.ExpansionError.badSubstitution("a")) {
      try ShellWords.expand("say ${a", variables: ["a": "1"])
    }
    // Without expansion (the REPL), `$` is an ordinary character.
    #expect(ShellWords.split("say $nope") == .words(["say", "$nope"]))
  }

  @Test func unclosedQuoteOrTrailingBackslashIsIncomplete() {
    #expect(ShellWords.split("say 'hello") == .incomplete)
    #expect(ShellWords.split("say \"hello") == .incomplete)
    #expect(ShellWords.split("say hello \\") == .incomplete)
  }

  @Test func quoteRoundTrips() {
    for word in ["plain", "two words", "O'Brien", "say \"hi\"", "back\\slash", "$HOME", "", "tab\there"] {
      #expect(ShellWords.split(ShellWords.quote(word)) == .words([word]), "\(word)")
    }
  }

  @Test func partialLineForCompletion() {
    let partial = ShellWords.partial("fixture search \"Alpha Hom")
    #expect(partial.words == ["fixture", "search"])
    #expect(partial.current == "Alpha Hom")
    #expect(partial.openQuote == "\"")
    #expect(ShellWords.partial("env use ").current == "")
  }

  @Test func continuationJoinsLinesLikeTheShell() {
    var pending = ShellWords.Continuation()
    #expect(pending.add("say 'first", number: 1) == .more)
    #expect(pending.add("second' \\", number: 2) == .more)
    #expect(pending.add("third", number: 3) == .words(["say", "first\nsecond", "third"]))
    #expect(pending.isEmpty)
  }

  @Test func backslashNewlineBeforeAnIndentedLineAddsNoEmptyWord() {
    var pending = ShellWords.Continuation()
    #expect(pending.add("fixture search \"alpha partners\" \\", number: 1) == .more)
    #expect(
      pending.add("  --limit 1", number: 2) == .words(["fixture", "search", "alpha partners", "--limit", "1"]))
    #expect(pending.add("say a\\", number: 3) == .more)
    #expect(pending.add("b", number: 4) == .words(["say", "ab"]))
  }

  @Test func continuationReportsTheLineWhereTheQuoteBegan() {
    var pending = ShellWords.Continuation()
    #expect(pending.add("workspace create \\", number: 7) == .more)
    #expect(pending.add("  --workspace-name O'Brien", number: 8) == .more)
    #expect(pending.add("fixture search alpha", number: 9) == .more)
    #expect(pending.firstLine == 7)
    #expect(pending.quoteLine == 8)
    #expect(pending.problem.contains("line 8"))
  }

  @Test func continuationIsCappedByLines() {
    var pending = ShellWords.Continuation()
    var last = pending.add("echo 'stray", number: 1)
    var number = 1
    while last == .more {
      number += 1
      last = pending.add("fixture search alpha", number: number)
    }
    #expect(last == .tooLong)
    #expect(number == ShellWords.Continuation.maxLines)
    #expect(pending.quoteLine == 1)
  }

  @Test func continuationIsCappedByBytes() {
    var pending = ShellWords.Continuation()
    #expect(pending.add("echo \"", number: 1) == .more)
    let long = String(repeating: "x", count: 40 * 1024)
    #expect(pending.add(long, number: 2) == .more)
    #expect(pending.add(long, number: 3) == .tooLong)
  }

  /// A stray apostrophe in a 255 kB script used to take 71 s (every line re-scanned from the
  /// quote); the scanner keeps its state, so this is linear, and the cap stops it early.
  @Test(.timeLimit(.minutes(1))) func strayApostropheInALongScriptFailsFast() {
    var pending = ShellWords.Continuation()
    let clock = ContinuousClock()
    let start = clock.now
    var result = pending.add("workspace create --workspace-name O'Brien", number: 1)
    var number = 1
    let line = String(repeating: "fixture search alpha homes --json ", count: 6)
    while result == .more && number < 100_000 {
      number += 1
      result = pending.add(line, number: number)
    }
    #expect(result == .tooLong)
    #expect(pending.quoteLine == 1)
    #expect(clock.now - start < .seconds(2))
  }

  /// fuzz/corpus/shellwords/regression-*: a quote followed by a combining mark (one grapheme
  /// cluster) was not seen as a quote, so `quote` did not round-trip.
  @Test(arguments: ["\u{748}\u{FFFD}(((\u{FFFD}\u{FFFD}", "\"\u{748}\u{FFFD}(p", "'\u{301}", "\\\u{301}x"])
  func quotingRoundTripsWithCombiningMarks(word: String) {
    #expect(ShellWords.split(ShellWords.quote(word)) == .words([word]))
  }
}
