import Foundation
import TestSupport
import Testing

/// `deck prefs edit`'s document and `deck prefs get --format yaml` through the real binary: one
/// YAML writer spells the text of both.
@Suite("deck prefs YAML spelling", .endToEndTimeLimit)
struct PrefsYAMLEndToEndTests {
  @Test("prefs edit's document and prefs get --format yaml spell a URL and quotes the same")
  func editAndGetSpellTheSame() async throws {
    try await offThePool {
      let (server, deck) = try DeckCLI.signedIn()
      defer { withExtendedLifetime(server) {} }
      let set = try deck.run([
        "prefs", "set", "player", "facebookUrl=https://facebook.com/slugger", "highSchool=Lincoln \"High\" # 1",
      ])
      #expect(set.status == 0, "\(set.stderr)")
      let url = "facebookUrl: https://facebook.com/slugger"
      let school = "highSchool: 'Lincoln \"High\" # 1'"

      let got = try deck.run(["prefs", "get", "player", "--no-cache", "--format", "yaml"])
      #expect(got.status == 0, "\(got.stderr)")
      #expect(got.stdout.contains(url + "\n"), "\(got.stdout)")
      #expect(got.stdout.contains(school + "\n"), "\(got.stdout)")

      let directory = deck.home + "/yaml-editor"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let editor = try EditorScript.write(in: directory, [])
      let edit = try deck.run(["prefs", "edit", "player"], environment: ["EDITOR": editor])
      #expect(edit.stderr.contains("Edit cancelled: the file is unchanged; nothing was sent."), "\(edit.stderr)")
      let seen = try String(contentsOfFile: directory + "/seen-1.yaml", encoding: .utf8)
      #expect(seen.contains("\n" + url + " "), "\(seen)")
      #expect(seen.contains("\n" + school + " "), "\(seen)")
    }
  }
}
