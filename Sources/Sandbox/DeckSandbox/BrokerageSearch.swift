import Foundation
import GRDB

/// Typeahead search over canonical brokerages.
///
/// Ranking: exact match, then name prefix, then word prefix (a later word of the name starts
/// with the query), then substring. Within a tier, shorter names come first, then alphabetical.
/// Each tier is one indexed query, and later tiers only run while the limit is not filled.
enum BrokerageSearch {
  struct Match: Equatable, Sendable {
    var id: String
    var name: String
  }

  enum InvalidRequest: Error, Equatable {
    case missingQuery
    case limitOutOfRange

    var message: String {
      switch self {
      case .missingQuery: "q is required"
      case .limitOutOfRange: "limit must be between 1 and 50"
      }
    }
  }

  static let defaultLimit = 15
  static let limits = 1...50

  /// Checks the raw parameters and returns the normalized query (trimmed, lowercased) and limit.
  static func validate(query: String?, limit: Int?) throws(InvalidRequest) -> (query: String, limit: Int) {
    let normalized = ContractText.trim(query ?? "").lowercased()
    guard !normalized.isEmpty else { throw .missingQuery }
    let limit = limit ?? defaultLimit
    guard limits.contains(limit) else { throw .limitOutOfRange }
    return (normalized, limit)
  }

  // The name and word columns are COLLATE NOCASE and indexed, so these range comparisons are
  // index searches. `upper` is the query followed by U+10FFFF, above any continuation.
  static let exactSQL = "SELECT id, name FROM brokerages WHERE name = ? ORDER BY name, id LIMIT ?"
  static let prefixSQL = """
    SELECT id, name FROM brokerages WHERE name >= ? AND name < ?
    ORDER BY length(name), name, id LIMIT ?
    """
  static let wordPrefixSQL = """
    SELECT id, name FROM brokerages
    WHERE id IN (SELECT brokerage_id FROM brokerage_words WHERE word >= ? AND word < ?)
    ORDER BY length(name), name, id LIMIT ?
    """
  static let substringSQL = """
    SELECT b.id, b.name FROM brokerage_trigrams t JOIN brokerages b ON b.rowid = t.rowid
    WHERE brokerage_trigrams MATCH ?
    ORDER BY length(b.name), b.name, b.id LIMIT ?
    """
  /// Queries shorter than a trigram cannot use the trigram index: scan.
  static let shortSubstringSQL = """
    SELECT id, name FROM brokerages WHERE instr(lower(name), ?) > 0
    ORDER BY length(name), name, id LIMIT ?
    """

  /// Searches with an already normalized query (see ``validate(query:limit:)``).
  static func search(_ db: Database, query: String, limit: Int) throws -> [Match] {
    // No name holds a NUL, and SQLite functions stop at one: a query with one matches nothing.
    guard !query.unicodeScalars.contains("\u{0}") else { return [] }
    var results: [Match] = []
    var seen: Set<String> = []
    let upper = query + "\u{10FFFF}"

    func run(_ sql: String, _ arguments: StatementArguments) throws {
      let remaining = limit - results.count
      guard remaining > 0 else { return }
      // Earlier tiers' rows may match again: over-fetch by their count, then skip them.
      let rows = try Row.fetchAll(db, sql: sql, arguments: arguments + [remaining + seen.count])
      for row in rows where results.count < limit {
        let match = Match(id: row[0], name: row[1])
        if seen.insert(match.id).inserted { results.append(match) }
      }
    }

    try run(exactSQL, [query])
    try run(prefixSQL, [query, upper])
    try run(wordPrefixSQL, [query, upper])
    if query.unicodeScalars.count >= 3 {
      try run(substringSQL, [ftsPhrase(query)])
    } else {
      try run(shortSubstringSQL, [query])
    }
    return results
  }

  /// The query as one FTS5 phrase: with the trigram tokenizer, a substring match.
  static func ftsPhrase(_ query: String) -> String {
    "\"" + query.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
