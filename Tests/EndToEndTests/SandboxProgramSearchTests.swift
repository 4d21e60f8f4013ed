import Foundation
import TestSupport
import Testing

/// deck finds deck-sandbox beside itself (/usr/bin in the packages, the prefix's bin for
/// scripts/install), else on PATH; when neither has it, it says how to install it.
@Suite("Finding deck-sandbox", .endToEndTimeLimit)
struct SandboxProgramSearchTests {
  @Test("with no deck-sandbox beside deck or on PATH, deck names the package and scripts/install")
  func missingServerSaysWhatToInstall() async throws {
    try await offThePool {
      let deck = try DeckCLI()
      // A folder holding deck alone, on the build folder's file system so that a hard link does.
      let folder = URL(fileURLWithPath: DeckCLI.binary).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deck-alone-" + UUID().uuidString)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let alone = folder.appendingPathComponent("deck").path
      do {
        try FileManager.default.linkItem(atPath: DeckCLI.binary, toPath: alone)
      } catch {
        try FileManager.default.copyItem(atPath: DeckCLI.binary, toPath: alone)
      }
      let result = try DeckCLI.execute(
        alone, ["brokerage", "search", "keller"], stdin: nil,
        environment: deck.environment.merging(["PATH": folder.path]) { $1 }, in: deck.home)
      #expect(result.status == 69, "\(result.all)")
      #expect(result.stderr.contains("Cannot find deck-sandbox, the sandbox server program, beside deck or on PATH."))
      #expect(result.stderr.contains("the deck-sandbox package (apt install deck-sandbox)"), "\(result.stderr)")
      #expect(result.stderr.contains("scripts/install"))
    }
  }
}
