import Foundation
import GRDB
import SandboxKit

/// Typeahead search over canonical brokerages.
///
/// Ranking: exact match, then name prefix, then word prefix (a later word of the name starts
/// with the query), then substring. Within a tier, shorter names come first, then alphabetical
/// (case-insensitive), then by id. Later tiers only run while the limit is not filled.
///
/// Every tier reads rows already in rank order and stops as soon as the limit is filled, so a
/// short prefix that matches most of a large table costs about as much as a long one:
/// - `brokerages_rank` indexes `(length(name), name, id)`, the rank order itself.
/// - A tier first counts its matches, up to ``sortThreshold``. A few matches are fetched through
///   the tier's own index and sorted. Many are found by walking the rank order instead: one
///   length at a time for prefixes (an index range per length, in one statement), and with the
///   match test on each row for word prefixes (per length, where `brokerage_words.name_length`
///   counts each length's matches) and substrings.
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
  /// Up to this many matches, a tier fetches them all and sorts them; beyond, it walks the rank
  /// order. Either way a tier reads at most a few thousand index entries.
  static let sortThreshold = 200

  /// Checks the raw parameters and returns the normalized query (trimmed, lowercased) and limit.
  static func validate(query: String?, limit: Int?) throws(InvalidRequest) -> (query: String, limit: Int) {
    let normalized = ContractText.trim(query ?? "").lowercased()
    guard !normalized.isEmpty else { throw .missingQuery }
    let limit = limit ?? defaultLimit
    guard limits.contains(limit) else { throw .limitOutOfRange }
    return (normalized, limit)
  }

  // The name and word columns are COLLATE NOCASE and indexed, so these range comparisons are
  // index searches. `upper` is the query followed by U+10FFFF, above any continuation. Every
  // statement names its index, so that the plan never depends on table statistics.
  static let exactSQL = "SELECT id, name FROM brokerages INDEXED BY brokerages_name WHERE name = ? ORDER BY name, id"

  static let prefixCountSQL = """
    SELECT count(*) FROM (SELECT 1 FROM brokerages INDEXED BY brokerages_name WHERE name >= ? AND name < ? LIMIT ?)
    """
  static let prefixSQL = """
    SELECT id, name FROM brokerages INDEXED BY brokerages_name WHERE name >= ? AND name < ?
    ORDER BY length(name), name, id
    """
  /// The name lengths from the first argument to the second, in increasing order: the outer
  /// loop (CROSS JOIN keeps it outer) of the statements that read one length at a time. For
  /// each length the inner loop reads an index range in (name, id) order, so their rows come
  /// in rank order and reading can stop at the limit.
  static let lengthsCTE = "WITH RECURSIVE lengths(n) AS (SELECT ? UNION ALL SELECT n + 1 FROM lengths WHERE n < ?) "
  static let prefixByLengthSQL =
    lengthsCTE + """
      SELECT b.id, b.name FROM lengths CROSS JOIN brokerages AS b INDEXED BY brokerages_rank
      WHERE length(b.name) = lengths.n AND b.name >= ? AND b.name < ?
      """
  static let maximumLengthSQL = "SELECT max(length(name)) FROM brokerages INDEXED BY brokerages_rank"

  static let wordCountSQL = """
    SELECT count(*) FROM (
      SELECT 1 FROM brokerage_words INDEXED BY brokerage_words_word WHERE word >= ? AND word < ? LIMIT ?)
    """
  static let wordPrefixSQL = """
    SELECT id, name FROM brokerages
    WHERE id IN (SELECT brokerage_id FROM brokerage_words INDEXED BY brokerage_words_word WHERE word >= ? AND word < ?)
    ORDER BY length(name), name, id
    """
  /// For each length, how many word rows match (up to the threshold).
  static let wordCountsByLengthSQL =
    lengthsCTE + """
      SELECT n, (
        SELECT count(*) FROM (
          SELECT 1 FROM brokerage_words INDEXED BY brokerage_words_length
          WHERE name_length = lengths.n AND word >= ? AND word < ? LIMIT ?))
      FROM lengths
      """
  static let wordPrefixOfLengthSQL = """
    SELECT id, name FROM brokerages
    WHERE id IN (
      SELECT brokerage_id FROM brokerage_words INDEXED BY brokerage_words_length
      WHERE name_length = ? AND word >= ? AND word < ?)
    ORDER BY name, id
    """
  static let wordPrefixWalkOfLengthSQL = """
    SELECT id, name FROM brokerages INDEXED BY brokerages_rank
    WHERE length(name) = ? AND EXISTS (
      SELECT 1 FROM brokerage_words INDEXED BY brokerage_words_owner
      WHERE brokerage_id = brokerages.id AND word >= ? AND word < ?)
    ORDER BY name, id
    """

  static let substringCountSQL = """
    SELECT count(*) FROM (SELECT 1 FROM brokerage_trigrams WHERE brokerage_trigrams MATCH ? LIMIT ?)
    """
  static let substringSQL = """
    SELECT b.id, b.name FROM brokerage_trigrams t JOIN brokerages b ON b.rowid = t.rowid
    WHERE brokerage_trigrams MATCH ?
    ORDER BY length(b.name), b.name, b.id
    """
  /// Many substring matches: walk the rank order. For a name of printable ASCII, the trigram
  /// match is exactly `instr(lower(name), query)`; any other name is checked against the trigram
  /// index itself (``substringCheckSQL``), so the results are the index's.
  static let substringWalkSQL = """
    SELECT id, name, rowid, name GLOB '*[^ -~]*' FROM brokerages INDEXED BY brokerages_rank
    WHERE instr(lower(name), ?) > 0 OR name GLOB '*[^ -~]*'
    ORDER BY length(name), name, id
    """
  static let substringCheckSQL = "SELECT 1 FROM brokerage_trigrams WHERE rowid = ? AND brokerage_trigrams MATCH ?"
  /// Queries shorter than a trigram cannot use the trigram index: walk the rank order.
  static let shortSubstringSQL = """
    SELECT id, name FROM brokerages INDEXED BY brokerages_rank WHERE instr(lower(name), ?) > 0
    ORDER BY length(name), name, id
    """

  /// Searches with an already normalized query (see ``validate(query:limit:)``).
  static func search(_ db: Database, query: String, limit: Int) throws -> [Match] {
    // No name holds a NUL, and SQLite functions stop at one: a query with one matches nothing.
    guard !query.unicodeScalars.contains("\u{0}") else { return [] }
    var results = Results(limit: limit)
    let upper = query + "\u{10FFFF}"
    let queryLength = query.unicodeScalars.count
    let longest = try Int.fetchOne(db.cachedStatement(sql: maximumLengthSQL)) ?? 0

    try results.take(db.cachedStatement(sql: exactSQL), [query])

    // Prefix
    if !results.isFull, try count(db, prefixCountSQL, [query, upper]) <= sortThreshold {
      try results.take(db.cachedStatement(sql: prefixSQL), [query, upper])
    } else if !results.isFull {
      try results.take(db.cachedStatement(sql: prefixByLengthSQL), [queryLength, longest, query, upper])
    }

    // Word prefix: a later word's tail is shorter than its name.
    if !results.isFull, try count(db, wordCountSQL, [query, upper]) <= sortThreshold {
      try results.take(db.cachedStatement(sql: wordPrefixSQL), [query, upper])
    } else if !results.isFull {
      let sorted = try db.cachedStatement(sql: wordPrefixOfLengthSQL)
      let walk = try db.cachedStatement(sql: wordPrefixWalkOfLengthSQL)
      let counts = try Row.fetchCursor(
        db.cachedStatement(sql: wordCountsByLengthSQL),
        arguments: [queryLength + 1, longest, query, upper, sortThreshold + 1])
      while !results.isFull, let row = try counts.next() {
        let (length, matches): (Int, Int) = (row[0], row[1])
        if matches == 0 { continue }
        try results.take(matches <= sortThreshold ? sorted : walk, [length, query, upper])
      }
    }

    // Substring
    guard !results.isFull else { return results.matches }
    if queryLength < 3 {
      try results.take(db.cachedStatement(sql: shortSubstringSQL), [query])
    } else if try count(db, substringCountSQL, [ftsPhrase(query)]) <= sortThreshold {
      try results.take(db.cachedStatement(sql: substringSQL), [ftsPhrase(query)])
    } else {
      let check = try db.cachedStatement(sql: substringCheckSQL)
      let phrase = ftsPhrase(query)
      let rows = try Row.fetchCursor(db.cachedStatement(sql: substringWalkSQL), arguments: [query])
      while !results.isFull, let row = try rows.next() {
        if row[3] as Bool, try Int.fetchOne(check, arguments: [row[2] as Int64, phrase]) == nil { continue }
        results.add(id: row[0], name: row[1])
      }
    }
    return results.matches
  }

  /// The matches collected so far, in rank order, each brokerage once.
  private struct Results {
    let limit: Int
    var matches: [Match] = []
    var seen: Set<String> = []

    var isFull: Bool { matches.count >= limit }

    mutating func add(id: String, name: String) {
      if seen.insert(id).inserted { matches.append(Match(id: id, name: name)) }
    }

    /// Adds the rows of a statement (id, name) in order until the limit is filled.
    mutating func take(_ statement: Statement, _ arguments: StatementArguments) throws {
      guard !isFull else { return }
      let rows = try Row.fetchCursor(statement, arguments: arguments)
      while !isFull, let row = try rows.next() {
        add(id: row[0], name: row[1])
      }
    }
  }

  /// How many rows a counting statement finds, counting at most one more than ``sortThreshold``.
  private static func count(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> Int {
    try Int.fetchOne(db.cachedStatement(sql: sql), arguments: arguments + [sortThreshold + 1]) ?? 0
  }

  /// The query as one FTS5 phrase: with the trigram tokenizer, a substring match.
  static func ftsPhrase(_ query: String) -> String {
    "\"" + query.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
