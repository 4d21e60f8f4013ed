import Foundation
import Synchronization

/// One fault rule: which requests it matches, what it does, and how often.
struct FaultRule: Sendable, Equatable {
  enum Action: String, Sendable, CaseIterable {
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

  func matches(method: String, path: String) -> Bool {
    if let wanted = self.method, wanted != method { return false }
    return FaultPattern.matches(pattern: self.path, path: path)
  }
}

/// The rules of one running sandbox (in memory, like the delay; a reset clears them). A rule
/// that has fired its `times` is used up: it no longer acts, but is kept (the last
/// ``maximumRules`` of them) with how often it fired, for `fault list --all`.
final class FaultRules: Sendable {
  static let maximumRules = 100

  private struct Store {
    var rules: [FaultRule] = []
    var usedUp: [FaultRule] = []
    var nextID = 1
  }
  private let store = Mutex(Store())

  /// The rules in force, in the order they are tried.
  var all: [FaultRule] { store.withLock { $0.rules } }

  /// The rules in force and the used-up ones, in order of id.
  var allWithUsedUp: [FaultRule] {
    store.withLock { ($0.rules + $0.usedUp).sorted { $0.id < $1.id } }
  }

  /// Adds a rule and returns it with its id; nil when there are already ``maximumRules`` in force.
  func add(_ rule: FaultRule) -> FaultRule? {
    store.withLock { store in
      guard store.rules.count < Self.maximumRules else { return nil }
      var rule = rule
      rule.id = store.nextID
      store.nextID += 1
      store.rules.append(rule)
      return rule
    }
  }

  /// Removes one rule, in force or used up (nil: all of them) and returns how many were
  /// removed: for all, the rules in force only (the used-up ones go without being counted).
  func clear(id: Int? = nil) -> Int {
    store.withLock { store in
      guard let id else {
        let cleared = store.rules.count
        store.rules.removeAll()
        store.usedUp.removeAll()
        return cleared
      }
      let before = store.rules.count + store.usedUp.count
      store.rules.removeAll { $0.id == id }
      store.usedUp.removeAll { $0.id == id }
      return before - store.rules.count - store.usedUp.count
    }
  }

  /// The first rule that matches and fires for this request (counting it), if any.
  /// A rule with no firings left is used up: it moves out of the rules in force.
  func fire(method: String, path: String, random: () -> Double = { Double.random(in: 0..<1) }) -> FaultRule? {
    store.withLock { store in
      for index in store.rules.indices where store.rules[index].matches(method: method, path: path) {
        let rule = store.rules[index]
        guard rule.probability >= 1 || random() < rule.probability else { continue }
        store.rules[index].fired += 1
        if let remaining = rule.remaining {
          store.rules[index].remaining = remaining - 1
        }
        let fired = store.rules[index]
        if fired.remaining == 0 {
          store.rules.remove(at: index)
          store.usedUp.append(fired)
          if store.usedUp.count > Self.maximumRules { store.usedUp.removeFirst() }
        }
        return fired
      }
      return nil
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
