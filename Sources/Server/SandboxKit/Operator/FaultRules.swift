import Foundation
internal import SQLKit

/// One fault rule: which requests it matches, what it does, and how often.
struct FaultRule: Sendable, Equatable, Codable {
  enum Action: String, Sendable, Codable, CaseIterable {
    /// Answer `status` (with `Retry-After` when given) instead of the real response.
    case status
    /// Only the latency: the real response, late.
    case latency
    /// Close the connection with a TCP reset, answering nothing.
    case reset
    /// Send the real response's head and half of its body, then close the connection.
    case truncate
    /// Answer 200 with a body that is not JSON although it says so.
    case malformed
    /// The real response without the first property named `field` (ResponseShape).
    case dropField = "drop-field"
    /// The real response with that property's value of another type.
    case retypeField = "retype-field"
    /// The real response with that property set to the string `value`.
    case enumValue = "enum-value"

    /// Whether it changes the shape of the real JSON body.
    var changesShape: Bool { [.dropField, .retypeField, .enumValue].contains(self) }
  }

  var id: Int
  /// An HTTP method, or nil for any.
  var method: String?
  /// A path pattern: `*` matches within one segment, `**` any number of segments.
  var path: String
  var action: Action
  var status: Int
  /// The property a shape change acts on, and the value enum-value gives it.
  var field: String? = nil
  var value: String? = nil
  var retryAfter: Int?
  var latencyMilliseconds: Int
  /// How many more times it may fire; nil: no limit.
  var remaining: Int?
  /// The chance that it fires on a matching request (0 < p ≤ 1).
  var probability: Double
  /// How many times it fired.
  var fired = 0
  /// The QA run's scope it was added in (``QARunScope``): it acts on that scope's requests
  /// only. nil: added outside a run, it acts on every request.
  var scope: String? = nil

  /// Whether it acts on a request of this method and path, sent in `scope` (nil: outside a run).
  func matches(method: String, path: String, scope: String? = nil) -> Bool {
    if let own = self.scope, own != scope { return false }
    if let wanted = self.method, wanted != method { return false }
    return FaultPattern.matches(pattern: self.path, path: path)
  }
}

/// The rules of one sandbox, as a value: every instance serving the database shares them
/// (stored as JSON in the `meta` table, see ``FaultSettings``; a reset clears them). A rule
/// that has fired its `times` is used up: it no longer acts, but is kept (the last
/// ``maximumRules`` of them) with how often it fired, for `fault list --all`.
struct FaultRuleSet: Sendable, Equatable, Codable {
  static let maximumRules = 100

  private var rules: [FaultRule] = []
  private var usedUp: [FaultRule] = []
  /// The id of the next rule added (ids are never reused, not even after a reset).
  private(set) var nextID = 1

  init() {}

  /// No rules, ids continuing from `nextID`.
  init(nextID: Int) { self.nextID = nextID }

  /// The rules in force, in the order they are tried.
  var all: [FaultRule] { rules }

  /// The rules in force and the used-up ones, in order of id.
  var allWithUsedUp: [FaultRule] { (rules + usedUp).sorted { $0.id < $1.id } }

  /// Whether a rule in force matches this request (it may still not fire: its probability).
  func matches(method: String, path: String, scope: String? = nil) -> Bool {
    rules.contains { $0.matches(method: method, path: path, scope: scope) }
  }

  /// The rules a request in `scope` lists and clears: outside a run (nil) every rule, else
  /// that scope's own.
  static func visible(_ rule: FaultRule, in scope: String?) -> Bool {
    scope == nil || rule.scope == scope
  }

  /// Adds a rule and returns it with its id; nil when there are already ``maximumRules`` in force.
  mutating func add(_ rule: FaultRule) -> FaultRule? {
    guard rules.count < Self.maximumRules else { return nil }
    var rule = rule
    rule.id = nextID
    nextID += 1
    rules.append(rule)
    return rule
  }

  /// Removes one rule, in force or used up (nil: all of them) and returns how many were
  /// removed: for all, the rules in force only (the used-up ones go without being counted).
  /// In a run's `scope`, only that run's rules: one of another scope is not found. Outside a
  /// run (nil), one rule of any scope, but "all" means the global rules, those added outside
  /// a run: the rules of QA runs in progress stay theirs.
  mutating func clear(id: Int? = nil, scope: String? = nil) -> Int {
    guard let id else {
      let cleared = rules.count(where: { $0.scope == scope })
      rules.removeAll { $0.scope == scope }
      usedUp.removeAll { $0.scope == scope }
      return cleared
    }
    let before = rules.count + usedUp.count
    let chosen = { (rule: FaultRule) in rule.id == id && Self.visible(rule, in: scope) }
    rules.removeAll(where: chosen)
    usedUp.removeAll(where: chosen)
    return before - rules.count - usedUp.count
  }

  /// The first rule that matches and fires for this request (counting it), if any.
  mutating func fire(
    method: String, path: String, scope: String? = nil, random: () -> Double = { Double.random(in: 0..<1) }
  ) -> FaultRule? {
    choose(method: method, path: path, scope: scope, random: random).flatMap { count(id: $0.id) }
  }

  /// The first rule that matches and fires for this request (its probability drawn), not
  /// counted yet: a shape rule counts only once it changed the answer. A request in a QA run's
  /// `scope` meets the global rules and its scope's, one outside a run (nil) the global ones.
  func choose(
    method: String, path: String, scope: String? = nil, random: () -> Double = { Double.random(in: 0..<1) }
  ) -> FaultRule? {
    rules.first { rule in
      rule.matches(method: method, path: path, scope: scope)
        && (rule.probability >= 1 || random() < rule.probability)
    }
  }

  /// Counts a firing of the rule `id` and returns it counted; nil when it is no longer in force.
  /// A rule with no firings left is used up: it moves out of the rules in force.
  mutating func count(id: Int) -> FaultRule? {
    guard let index = rules.firstIndex(where: { $0.id == id }) else { return nil }
    rules[index].fired += 1
    if let remaining = rules[index].remaining {
      rules[index].remaining = remaining - 1
    }
    let fired = rules[index]
    if fired.remaining == 0 {
      rules.remove(at: index)
      usedUp.append(fired)
      if usedUp.count > Self.maximumRules { usedUp.removeFirst() }
    }
    return fired
  }
}

/// What the operator injects into the public responses: the fault rules and the delays. They
/// live in the `meta` table, so that every instance serving one database (several
/// `deck-sandbox` behind a load balancer) applies the same ones, and a rule's `times` counts
/// its firings on all of them:
/// - `faults`: the ``FaultRuleSet`` as JSON (absent: none, ids from 1);
/// - `delay_ms`: the delay in milliseconds (absent: none);
/// - `scoped_delays`: the delays QA runs set, by scope (``QARunScope``), as a JSON object.
///
/// A reset deletes them. Changes run in write transactions (read, change, save), which the
/// engines serialize across connections, processes and instances.
struct FaultSettings: Sendable, Equatable {
  static let rulesKey = "faults"
  static let delayKey = "delay_ms"
  static let scopedDelaysKey = "scoped_delays"

  var rules = FaultRuleSet()
  var delayMilliseconds = 0
  /// A QA run's scope to the delay it set, which its requests get instead of the global one.
  var scopedDelays: [String: Int] = [:]

  /// The settings the current request was handled under, read once by ``FaultMiddleware`` for
  /// it and for ``DelayMiddleware``.
  @TaskLocal static var current: FaultSettings?

  /// The delay a request in `scope` gets (nil: outside a run): its run's own, else the global one.
  func delay(in scope: String?) -> Int {
    scope.flatMap { scopedDelays[$0] } ?? delayMilliseconds
  }

  /// A row of `meta`.
  private struct MetaRow: Decodable {
    var key: String
    var value: String
  }

  /// All three, with one statement.
  @Sendable static func load(_ db: any SQLDatabase) async throws -> FaultSettings {
    var settings = FaultSettings()
    let rows = try await db.fetchAll(
      MetaRow.self, "SELECT key, value FROM meta WHERE key IN (?, ?, ?)", [rulesKey, delayKey, scopedDelaysKey])
    for (key, value) in rows.map({ ($0.key, $0.value) }) {
      switch key {
      case rulesKey: settings.rules = try decode(value)
      case delayKey: settings.delayMilliseconds = try delay(value)
      case scopedDelaysKey: settings.scopedDelays = try decodeDelays(value)
      default: break
      }
    }
    return settings
  }

  /// The stored rules.
  @Sendable static func rules(_ db: any SQLDatabase) async throws -> FaultRuleSet {
    try await SandboxMeta.value(db, rulesKey).map(decode) ?? FaultRuleSet()
  }

  static func save(_ rules: FaultRuleSet, _ db: any SQLDatabase) async throws {
    let json = String(decoding: try JSONEncoder().encode(rules), as: UTF8.self)
    try await SandboxMeta.set(db, rulesKey, json)
  }

  /// The id the next rule added gets; nil when no rule was ever added, or when the stored
  /// rules cannot be read (a reset, which uses it, must work whatever was stored).
  static func nextRuleID(_ db: any SQLDatabase) async throws -> Int? {
    try await SandboxMeta.value(db, rulesKey).flatMap { try? decode($0).nextID }
  }

  /// The stored delay a request in `scope` gets (nil: the global one).
  static func delay(in scope: String?, _ db: any SQLDatabase) async throws -> Int {
    let global = try await SandboxMeta.value(db, delayKey).map(delay) ?? 0
    guard let scope else { return global }
    return try await scopedDelays(db)[scope] ?? global
  }

  /// Sets the global delay (`scope` nil), or a QA run's (0 removes it: its requests get the
  /// global one again).
  static func setDelay(_ milliseconds: Int, in scope: String?, _ db: any SQLDatabase) async throws {
    guard let scope else { return try await SandboxMeta.set(db, delayKey, String(milliseconds)) }
    var delays = try await scopedDelays(db)
    delays[scope] = milliseconds == 0 ? nil : milliseconds
    let json = String(decoding: try JSONEncoder().encode(delays), as: UTF8.self)
    try await SandboxMeta.set(db, scopedDelaysKey, json)
  }

  private static func scopedDelays(_ db: any SQLDatabase) async throws -> [String: Int] {
    try await SandboxMeta.value(db, scopedDelaysKey).map(decodeDelays) ?? [:]
  }

  private static func decode(_ json: String) throws -> FaultRuleSet {
    try JSONDecoder().decode(FaultRuleSet.self, from: Data(json.utf8))
  }

  private static func decodeDelays(_ json: String) throws -> [String: Int] {
    try JSONDecoder().decode([String: Int].self, from: Data(json.utf8))
  }

  private static func delay(_ text: String) throws -> Int {
    guard let milliseconds = Int(text) else { throw FaultSettingsError.unreadableDelay(text) }
    return milliseconds
  }
}

enum FaultSettingsError: Error, CustomStringConvertible {
  case unreadableDelay(String)

  var description: String {
    switch self {
    case .unreadableDelay(let text): "the stored delay is not a number of milliseconds: \(text)"
    }
  }
}

/// Path patterns: literal segments, `*` (any text within one segment, also as part of one:
/// `sess_*`) and `**` (any number of segments, including none).
enum FaultPattern {
  /// Segments as the router sees them: empty ones do not count, in the pattern or the path
  /// (`//api/x/` is `/api/x`, and so is a rule written `/api/x/`).
  static func matches(pattern: String, path: String) -> Bool {
    match(pattern.split(separator: "/"), path.split(separator: "/"))
  }

  private static func match(_ pattern: [Substring], _ path: [Substring]) -> Bool {
    // Iterative with memo-free backtracking over `**` (patterns are short, at most 1024 bytes).
    var memo: [Int: Bool] = [:]
    func go(_ i: Int, _ j: Int) -> Bool {
      let key = i * (path.count + 1) + j
      if let known = memo[key] { return known }
      let result: Bool
      if i == pattern.count {
        result = j == path.count
      } else if pattern[i] == "**" {
        result = go(i + 1, j) || (j < path.count && go(i, j + 1))
      } else if j < path.count, segment(pattern[i], matches: path[j]) {
        result = go(i + 1, j + 1)
      } else {
        result = false
      }
      memo[key] = result
      return result
    }
    return go(0, 0)
  }

  /// `*` within a segment matches any run of characters.
  static func segment(_ pattern: Substring, matches text: Substring) -> Bool {
    let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
    guard parts.count > 1 else { return pattern == text }
    var rest = text[...]
    guard let first = parts.first, rest.hasPrefix(first) else { return false }
    rest = rest.dropFirst(first.count)
    for (offset, part) in parts.dropFirst().enumerated() {
      let isLast = offset == parts.count - 2
      if isLast { return rest.hasSuffix(part) }
      guard let range = rest.range(of: part) else { return false }
      rest = rest[range.upperBound...]
    }
    return true
  }
}
