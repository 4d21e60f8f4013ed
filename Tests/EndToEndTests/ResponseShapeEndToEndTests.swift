import Foundation
import TestSupport
import Testing

/// Issue 45, item 8: an answer whose shape changed is said in words (the field, what was
/// expected, what came), names the sandbox's fault rule that changed it, and leaves out the
/// URL hint then. Real fault rules on a served sandbox, the built deck.
@Suite("A changed response shape, in words", .endToEndTimeLimit)
struct ResponseShapeEndToEndTests {
  static let decoderPhrases = ["Expected to decode", "Index 0", "found number instead", "String", "CodingKeys"]

  @Test func aRetypedFieldNamesTheFieldTheKindsAndTheRule() async throws {
    try await offThePool {
      let server = try SandboxProcess()
      let deck = try DeckCLI(server: server)
      let added = try deck.run(
        ["sandbox", "fault", "add", "/api/brokerages/search", "--retype-field", "name", "--times", "1", "--json"])
      #expect(added.status == 0, "\(added.stderr)")
      let id = try #require(
        (try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])?["id"] as? Int)

      let search = try deck.run(["brokerage", "search", "keller"])
      #expect(search.status == 1, "\(search.stderr)")
      #expect(
        search.stderr.contains("`[0].name` should be text but the server sent a number."), "\(search.stderr)")
      #expect(search.stderr.contains("The sandbox's fault rule \(id) changed this answer on purpose."))
      #expect(search.stderr.contains("deck sandbox fault clear \(id)"))
      #expect(!search.stderr.contains("URL"), "\(search.stderr)")
      for phrase in Self.decoderPhrases { #expect(!search.stderr.contains(phrase), "\(search.stderr)") }

      // The rule fired once: the same search works again.
      #expect(try deck.run(["brokerage", "search", "keller"]).status == 0)
      _ = server
    }
  }

  /// The quiz's questions (the card of the full-screen quiz and `mbti questions` say the same).
  @Test func theQuizQuestionsSayItInTheSameWords() async throws {
    try await offThePool {
      let server = try SandboxProcess()
      let deck = try DeckCLI(server: server)
      for (fault, words) in [
        (["--retype-field", "question"], "`[0].question` should be text but the server sent a number."),
        (["--drop-field", "options"], "`[0].options` is missing."),
        (["--malformed"], "the body is not valid JSON."),
      ] {
        let added = try deck.run(["sandbox", "fault", "add", "/questions/", "--method", "GET", "--times", "1"] + fault)
        #expect(added.status == 0, "\(added.stderr)")
        let questions = try deck.run(["mbti", "questions"])
        #expect(questions.status == 1)
        #expect(questions.stderr.contains("Couldn’t load questions: "), "\(questions.stderr)")
        #expect(questions.stderr.contains(words), "\(questions.stderr)")
        #expect(questions.stderr.contains("fault rule"), "\(questions.stderr)")
        for phrase in Self.decoderPhrases { #expect(!questions.stderr.contains(phrase), "\(questions.stderr)") }
      }
      _ = server
    }
  }
}
