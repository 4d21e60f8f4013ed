import DeckSupport
import Foundation
import TestSupport
import Testing

/// `--version` says the commit a program was built from, and never one it was not:
/// Plugins/build-commit.sh (the BuildCommit plugin's prebuild command, at every build) on
/// checkouts clean and changed, on a tarball's folder and on a folder inside another
/// repository; and the built programs' answer.
@Suite("The commit --version names", .endToEndTimeLimit)
struct BuildCommitTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let script = repository.appendingPathComponent("Plugins/build-commit.sh").path

  /// Runs a program to its end, off the cooperative pool.
  func run(_ executable: String, _ arguments: [String], in directory: String) async throws -> DeckCLI.Result {
    let environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory,
      "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
      "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
    ]
    return try await offThePool {
      try DeckCLI.execute(executable, arguments, stdin: nil, environment: environment, in: directory)
    }
  }

  func git(_ arguments: [String], in directory: String) async throws -> String {
    let result = try await run("/usr/bin/env", ["git", "-C", directory] + arguments, in: directory)
    #expect(result.status == 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// What the script says of `package`: BuildCommit.description's value.
  func described(_ package: String, output: String) async throws -> String {
    let result = try await run("/bin/sh", [Self.script, package, output], in: package)
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: output, encoding: .utf8)
    let line = try #require(text.split(separator: "\n").first { $0.contains("static let description") })
    return String(line.split(separator: "\"")[1])
  }

  func write(_ text: String, to path: String) throws {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  @Test("a clean checkout, a changed one, an untracked file, a tarball and a folder inside another repository")
  func everyKindOfSource() async throws {
    let directory = try TemporaryDirectory(prefix: "deck-commit-")
    let package = directory.path + "/package"
    let output = directory.path + "/out/BuildCommit.swift"
    try FileManager.default.createDirectory(atPath: package + "/Sources", withIntermediateDirectories: true)
    try write("let a = 1\n", to: package + "/Sources/a.swift")

    #expect(try await described(package, output: output) == "unknown commit", "a tarball: no git checkout")

    _ = try await git(["init", "-q"], in: package)
    _ = try await git(["add", "."], in: package)
    _ = try await git(["commit", "-q", "-m", "one"], in: package)
    let commit = try await git(["rev-parse", "--short=12", "HEAD"], in: package)
    #expect(commit.count == 12)
    #expect(try await described(package, output: output) == "commit \(commit)")

    // Unchanged: the file is not written again, so nothing recompiles.
    let before = try FileManager.default.attributesOfItem(atPath: output)[.modificationDate] as? Date
    try await Task.sleep(for: .milliseconds(1100))
    #expect(try await described(package, output: output) == "commit \(commit)")
    #expect(try FileManager.default.attributesOfItem(atPath: output)[.modificationDate] as? Date == before)

    try write("let a = 2\n", to: package + "/Sources/a.swift")
    #expect(try await described(package, output: output) == "commit \(commit), modified")
    _ = try await git(["checkout", "-q", "--", "."], in: package)
    try write("let b = 1\n", to: package + "/Sources/b.swift")
    #expect(try await described(package, output: output) == "commit \(commit), modified", "an untracked source")
    try FileManager.default.removeItem(atPath: package + "/Sources/b.swift")
    #expect(try await described(package, output: output) == "commit \(commit)")

    // A tarball unpacked inside another project's checkout: that project's commit is not ours.
    let inner = package + "/vendor/deck"
    try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
    #expect(try await described(inner, output: output) == "unknown commit")
  }

  @Test("deck and deck-sandbox --version: the version, and a commit of this repository or none")
  func programsSayTheirCommit() async throws {
    let directory = try TemporaryDirectory(prefix: "deck-commit-")
    let deck = try await run(DeckCLI.binary, ["--version"], in: directory.path)
    let sandbox = try await run(DeckCLI.sandboxBinary, ["--version"], in: directory.path)
    #expect(deck.status == 0 && sandbox.status == 0, "\(deck.stderr) \(sandbox.stderr)")
    #expect(deck.stdout == sandbox.stdout, "both programs of one build name one commit")
    let printed = deck.stdout.trimmingCharacters(in: .newlines)
    let pattern =
      /(?<version>[0-9][0-9A-Za-z.+~]*) \((?:commit (?<commit>[0-9a-f]{12})(?:, modified)?|unknown commit)\)/
    let match = try #require(try pattern.wholeMatch(in: printed), "deck --version printed \(printed)")
    #expect(match.output.version == DeckVersion.current)
    if let commit = match.output.commit {
      // A commit this repository has: never one made up or of another project.
      let known = try await run(
        "/usr/bin/env", ["git", "-C", Self.repository.path, "cat-file", "-e", "\(commit)^{commit}"],
        in: directory.path)
      #expect(known.status == 0, "\(commit) is not a commit of \(Self.repository.path)")
    }
  }
}
