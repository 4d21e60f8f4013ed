import Foundation
import TestSupport
import Testing

/// `scripts/install`'s argument handling, which needs no release build (`scripts/test-install`,
/// run by hand, checks a real install and uninstall).
@Suite("scripts/install arguments", .endToEndTimeLimit)
struct InstallScriptTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("scripts/install").path

  func install(_ arguments: [String], in directory: String) throws -> DeckCLI.Result {
    try DeckCLI.execute(
      "/usr/bin/env", ["bash", Self.script] + arguments, stdin: nil,
      environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory],
      in: directory)
  }

  @Test func uninstallNeverCreatesAMistypedPrefix() throws {
    let directory = NSTemporaryDirectory() + "deck-install-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let typo = directory + "/typo/prefix"
    let result = try install(["--uninstall", "--prefix", typo], in: directory)
    #expect(result.status == 1, "\(result.all)")
    #expect(result.stderr.contains("nothing to uninstall: \(typo) does not exist"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directory + "/typo"), "the prefix was created")
  }

  @Test func helpShowsTheUsageOnly() throws {
    let directory = NSTemporaryDirectory() + "deck-install-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try install(["--help"], in: directory)
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Installs deck:"))
    #expect(result.stdout.contains("scripts/install --uninstall [--prefix DIR]"))
    #expect(result.stdout.hasSuffix("It never removes a file it did not install.\n"), "\(result.stdout)")
    #expect(!result.stdout.contains("set -euo pipefail"))
  }
}
