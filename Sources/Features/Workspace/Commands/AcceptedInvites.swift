import DeckCore
import DeckSupport
import FoundationEssentials
import WorkspaceRules

/// The invites this deck accepted, one file per environment
/// (`$XDG_STATE_HOME/deck/workspace/<environment>.accepted.json`, mode 0600, written
/// atomically under its lock). The backend answers a second acceptance as it answers any used
/// invite (400 "This invite has already been used", workspace-onboarding.md section 3), and an
/// invite can be accepted only by its own email: when this deck accepted the invite for the
/// same email, the member who runs it again is told they are already a member, and nothing
/// changes. An invite accepted elsewhere (another machine or home) stays "already used".
/// Tokens are kept as SHA-256 digests, never in the clear.
struct AcceptedInvites: Sendable {
  struct Entry: Codable, Sendable, Equatable {
    /// The SHA-256 of the invite token, in hex.
    var tokenDigest: String
    /// The signed-in email that accepted it, as the backend matches it (trimmed, lowercased).
    var email: String
    var workspaceId: String
    var workspaceName: String?
    var acceptedAt: Date
  }

  /// The file keeps the latest this many acceptances.
  static let limit = 200

  let path: String

  init(context: DeckContext) throws {
    path = "\(context.paths.stateDirectory)/workspace/\(try context.environment().name).accepted.json"
  }

  static func digest(_ token: String) -> String {
    SHA256.hex(SHA256.hash(Array(token.utf8)))
  }

  func load() throws -> [Entry] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    do {
      return try DeckJSON.decoder.decode([Entry].self, from: data)
    } catch {
      throw DeckError.configuration(
        "Cannot read the accepted invites \(path): \(ErrorText.describe(error))",
        hint: "Remove the file; deck then only forgets which invites it accepted.")
    }
  }

  /// The acceptance of `token` by `email`, if this deck recorded one.
  func entry(token: String, email: String) throws -> Entry? {
    let digest = Self.digest(token)
    return try load().last { $0.tokenDigest == digest && EmailRules.matches($0.email, email) }
  }

  /// Records an acceptance (a read-modify-write under the file's lock).
  func record(_ entry: Entry) throws {
    try AtomicFile.ensureDirectory(PathText.parent(path))
    try FileLock(for: path).withLock {
      var entries = (try? load()) ?? []
      entries.removeAll { $0.tokenDigest == entry.tokenDigest }
      entries.append(entry)
      if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
      try AtomicFile.write(try DeckJSON.encoder.encode(entries), to: path, mode: 0o600)
    }
  }
}
