import DeckCore
import DeckSupport
import FoundationEssentials

/// The quiz's events that the nudge service has not confirmed yet, one file per environment
/// (`$XDG_STATE_HOME/deck/mbti/<environment>.outbox.json`, mode 0600, written atomically under
/// its lock). An event is written here before it is sent and removed once the service answers
/// 201 (or refuses it for good, 400/409/422): an event whose request failed, timed out or was
/// cut short when the command ended is sent again by the next command that talks to nudge.
/// Each carries its id as `Idempotency-Key`, so a resent event the service had already stored
/// (its answer was lost) is not recorded twice.
struct MbtiOutbox: Sendable {
  struct Entry: Codable, Sendable, Equatable {
    /// A UUID, sent as the Idempotency-Key.
    var id: String
    var userID: String
    var type: String
    var details: [String: String]
    var createdAt: Date
    /// Requests made for it so far that got no confirmation.
    var attempts: Int
    /// Why the last attempt failed.
    var lastError: String?
    /// The sandbox fault rule that shaped the last attempt's answer (`rule 3`), if one did.
    var lastFault: String?

    enum CodingKeys: String, CodingKey {
      case id
      case userID = "userId"
      case type, details, createdAt, attempts, lastError, lastFault
    }
  }

  /// The outbox keeps at most this many events; past it the oldest are dropped (a service down
  /// for weeks and hundreds of quizzes), so the file stays small.
  static let limit = 500

  let path: String

  init(store: MbtiStore) {
    path = PathText.deletingExtension(store.path) + ".outbox.json"
  }

  init(path: String) {
    self.path = path
  }

  func load() throws -> [Entry] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    do {
      return try DeckJSON.decoder.decode([Entry].self, from: data)
    } catch {
      throw DeckError.configuration(
        "Cannot read the MBTI events outbox \(path): \(ErrorText.describe(error))",
        hint: "Remove the file; the events waiting in it are then not sent.")
    }
  }

  /// A read-modify-write under the file's lock (parallel deck processes add and remove events).
  /// An outbox that cannot be read is started again empty rather than block every event.
  func update(_ change: (inout [Entry]) -> Void) throws {
    try AtomicFile.ensureDirectory(PathText.parent(path))
    try FileLock(for: path).withLock {
      var entries = (try? load()) ?? []
      change(&entries)
      if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
      try AtomicFile.write(try DeckJSON.encoder.encode(entries), to: path, mode: 0o600)
    }
  }

  func add(_ entry: Entry) throws {
    try update { $0.append(entry) }
  }

  func remove(_ id: String) throws {
    try update { $0.removeAll { $0.id == id } }
  }

  func failed(_ id: String, reason: String, fault: String? = nil) throws {
    try update { entries in
      guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
      entries[index].attempts += 1
      entries[index].lastError = reason
      entries[index].lastFault = fault
    }
  }
}
