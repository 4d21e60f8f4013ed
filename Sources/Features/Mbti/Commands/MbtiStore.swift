import DeckCore
import DeckSupport
import FoundationEssentials
import MbtiRules

/// What the quiz keeps between runs, one file per environment
/// (`$XDG_STATE_HOME/deck/mbti/<environment>.json`, mode 0600, written atomically): the
/// anonymous user id (the app's `ms_user_id`), the last result, and the answers of an
/// unfinished quiz (saved as they are given, for `quiz --resume`).
struct MbtiStore: Sendable {
  struct Contents: Codable, Sendable, Equatable {
    var userID: String?
    var result: SavedResult?
    var progress: [String: Int]?

    enum CodingKeys: String, CodingKey {
      case userID = "userId"
      case result, progress
    }
  }

  struct SavedResult: Codable, Sendable, Equatable {
    var userID: String
    var profile: String
    var scores: [String: Int]
    var takenAt: Date
    var environment: String

    enum CodingKeys: String, CodingKey {
      case userID = "userId"
      case profile, scores, takenAt, environment
    }

    var mbtiProfile: MbtiProfile { MbtiProfile(userId: userID, profile: profile, scores: scores) }
  }

  let path: String
  let environment: String

  init(context: DeckContext) throws {
    environment = try context.environment().name
    path = "\(context.paths.stateDirectory)/mbti/\(environment).json"
  }

  func load() throws -> Contents {
    guard let data = FileManager.default.contents(atPath: path) else { return Contents() }
    do {
      return try DeckJSON.decoder.decode(Contents.self, from: data)
    } catch {
      throw DeckError.configuration(
        "Cannot read the MBTI state \(path): \(ErrorText.describe(error))",
        hint: "Remove the file to start over (a new anonymous user id is made).")
    }
  }

  /// A read-modify-write of the file under its lock (`<file>.lock`, `flock`), so parallel deck
  /// processes (a quiz saving its answers, a `submit`, two `user-id`s) never lose each other's
  /// changes.
  func update(_ change: (inout Contents) -> Void) throws {
    try AtomicFile.ensureDirectory(PathText.parent(path))
    try FileLock(for: path).withLock {
      var contents = try load()
      change(&contents)
      try AtomicFile.write(try DeckJSON.encoder.encode(contents), to: path, mode: 0o600)
    }
  }

  /// The persisted anonymous id, made (and saved) on first use. The check and the write happen
  /// under the lock: parallel first uses all get the one id that was saved.
  func userID() throws -> String {
    if let existing = try load().userID, UUID(uuidString: existing) != nil { return existing }
    var made = ""
    try update { contents in
      if let existing = contents.userID, UUID(uuidString: existing) != nil {
        made = existing
      } else {
        made = UUID().uuidString.lowercased()
        contents.userID = made
      }
    }
    return made
  }
}
