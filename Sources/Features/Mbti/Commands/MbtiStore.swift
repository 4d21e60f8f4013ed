import DeckCore
import DeckSupport
import Foundation
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
        "Cannot read the MBTI state \(path): \(error.localizedDescription)",
        hint: "Remove the file to start over (a new anonymous user id is made).")
    }
  }

  func update(_ change: (inout Contents) -> Void) throws {
    var contents = try load()
    change(&contents)
    try AtomicFile.ensureDirectory((path as NSString).deletingLastPathComponent)
    try AtomicFile.write(try DeckJSON.encoder.encode(contents), to: path, mode: 0o600)
  }

  /// The persisted anonymous id, made (and saved) on first use.
  func userID() throws -> String {
    if let existing = try load().userID, UUID(uuidString: existing) != nil { return existing }
    let made = UUID().uuidString.lowercased()
    try update { $0.userID = made }
    return made
  }
}
