import DeckAuth
import DeckCore
import DeckSupport
import DeckValues
import FoundationEssentials
import PrefsRules

/// The last-known preferences, kept for when the recruiting service cannot be reached
/// (preferences.md, section 5: "cache last-known preferences locally"). One file per environment,
/// account and category, `$XDG_STATE_HOME/deck/prefs/<environment>/<account>/<category>.json`,
/// mode 0600 in 0700 directories, written atomically with what the service answered last: every
/// command that reads or writes a category (`PrefsService`) keeps it.
struct PrefsCache: Sendable {
  struct Entry: Codable, Sendable, Equatable {
    var category: PrefsCategory
    var fetchedAt: Date
    var owner: String
    var readOnly: Bool
    var updatedAt: Date?
    /// The document as the service sent it (null: nothing was stored).
    var document: JSONValue
  }

  let directory: String

  /// The cache of the current environment's active account.
  init(context: DeckContext) async throws {
    let environment = try context.environment().name
    let account = try await Self.account(context)
    directory = "\(context.paths.stateDirectory)/prefs/\(environment)/\(Self.fileName(account))"
  }

  /// Who the cache belongs to: the email (else the subject) of `DECK_TOKEN`, else the active account.
  static func account(_ context: DeckContext) async throws -> String {
    let token = try await context.accessToken()
    if let claims = JWTClaims(token: token), let name = claims.email ?? claims.subject, !name.isEmpty { return name }
    let environment = try context.environment().name
    return try context.tokenStore.accounts(in: environment).activeSession?.email ?? "token"
  }

  /// A name safe for a file: letters, digits, `@`, `.`, `_`, `+` and `-` kept, anything else
  /// percent-encoded (so `/` and `..` never escape the directory).
  static func fileName(_ name: String) -> String {
    var result = ""
    for byte in name.utf8 {
      let scalar = Unicode.Scalar(byte)
      if ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || "@_+-".unicodeScalars.contains(scalar) || (scalar == "." && !result.isEmpty)
      {
        result.unicodeScalars.append(scalar)
      } else {
        result += "%" + NumberText.hex(byte, width: 2, uppercase: true)
      }
    }
    return result.isEmpty ? "%00" : result
  }

  func path(_ category: PrefsCategory) -> String { "\(directory)/\(category.rawValue).json" }

  func store(_ fetched: FetchedPrefs, at date: Date = Date()) throws {
    let entry = Entry(
      category: fetched.category, fetchedAt: date, owner: fetched.owner, readOnly: fetched.readOnly,
      updatedAt: fetched.updatedAt, document: fetched.document)
    try AtomicFile.ensureDirectory(directory)
    try AtomicFile.write(try DeckJSON.encoder.encode(entry), to: path(fetched.category), mode: 0o600)
  }

  /// The cached copy of `category`, or nil when there is none (or it cannot be read).
  func load(_ category: PrefsCategory) -> Entry? {
    guard let data = FileManager.default.contents(atPath: path(category)),
      let entry = try? DeckJSON.decoder.decode(Entry.self, from: data), entry.category == category
    else { return nil }
    return entry
  }
}

extension FetchedPrefs {
  init(_ entry: PrefsCache.Entry) throws {
    try self.init(
      category: entry.category, document: entry.document, owner: entry.owner, readOnly: entry.readOnly,
      updatedAt: entry.updatedAt)
  }
}

/// `get`'s source of truth: the service, else (when it cannot be reached) the cached copy.
struct PrefsReader: Sendable {
  let context: DeckContext
  /// `--no-cache`: neither read nor write the cache; an unreachable service fails (exit 69).
  let useCache: Bool

  /// What `get` shows: fresh from the service (and cached), or the cached copy with its age.
  struct Result: Sendable {
    var fetched: FetchedPrefs
    /// When the cached copy shown was fetched; nil when it is fresh.
    var cachedAt: Date?
  }

  func read(_ category: PrefsCategory) async throws -> Result {
    let service = PrefsService(context: context, caches: useCache)
    do {
      return Result(fetched: try await service.fetch(category), cachedAt: nil)
    } catch {
      let problem = ErrorPresenter.deckError(for: error)
      guard useCache, case .unavailable = problem.kind,
        let entry = try? await PrefsCache(context: context).load(category)
      else { throw error }
      context.output.info(
        "warning: \(problem.message) Showing the \(category.noun) cached \(Self.age(since: entry.fetchedAt)) (\(entry.fetchedAt.formatted(.iso8601))); they may be out of date."
      )
      return Result(fetched: try FetchedPrefs(entry), cachedAt: entry.fetchedAt)
    }
  }

  /// `5 seconds ago`, `3 minutes ago`, `2 hours ago`, `4 days ago`.
  static func age(since date: Date, now: Date = Date()) -> String {
    let seconds = max(0, Int(now.timeIntervalSince(date)))
    func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s") ago" }
    switch seconds {
    case ..<60: return unit(seconds, "second")
    case ..<3600: return unit(seconds / 60, "minute")
    case ..<86_400: return unit(seconds / 3600, "hour")
    default: return unit(seconds / 86_400, "day")
    }
  }
}
