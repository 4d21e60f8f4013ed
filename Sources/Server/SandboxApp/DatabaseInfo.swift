import ArgumentParser
import DeckSupport
import Foundation
import SandboxKit

/// `deck-sandbox db-info --db PATH`: what is in a sandbox database, read only, as JSON (or
/// `null` when there is no file), for `deck doctor`.
struct DatabaseInfo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "db-info", abstract: "Print a sandbox database's size and migrations as JSON, read only.")

  @Option(help: ArgumentHelp("The SQLite database file.", valueName: "path"), completion: .file())
  var db: String

  struct Report: Encodable {
    var size: Int64
    var appliedMigrations: [String]
    var knownMigrations: [String]
  }

  func run() async throws {
    let summary = try await SandboxDatabaseFile.inspect(path: db, features: SandboxRegistry.features)
    let report = summary.map { Report(size: $0.size, appliedMigrations: $0.applied, knownMigrations: $0.known) }
    let data = try DeckJSON.encoder.encode(report)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
  }
}
