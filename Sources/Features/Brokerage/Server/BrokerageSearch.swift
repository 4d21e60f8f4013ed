import Foundation
internal import SQLKit
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
/// - A statement returns all its rows at once, so each one that fetches a tier's matches ends in
///   `LIMIT ?`: the number still needed plus the matches already taken, which it may return
///   again (that is, the request's limit). Loops that could run over a whole large table read in
///   pages: the per-length word counts a growing window of lengths at a time, the substring walk
///   (whose rows may fail the trigram check) a growing page at a time from the last row read.
enum BrokerageSearch {
  struct Match: Equatable, Sendable, Decodable {
    var id: String
    var name: String
  }

  /// A row of a count by name length: the length, and how many names of it match.
  private struct LengthCount: Decodable {
    var n: Int
    var matches: Int
  }

  /// A row of the substring walk: the name, where the walk stands, and whether the name needs
  /// the check in Swift (text that is not ASCII).
  private struct WalkRow: Decodable {
    var rowid: Int64
    var id: String
    var name: String
    var nameLength: Int
    var nonAscii: Int
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
  /// The most rows one page of the substring walk reads (the first reads the request's limit,
  /// each next one twice the last).
  static let largestWalkPage = 1024

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
  // statement names its index, so that the plan never depends on table statistics. The
  // statements that return matches end in `LIMIT ?` (see ``Results/take(_:_:_:)``).
  static let exactSQL =
    "SELECT id, name FROM brokerages INDEXED BY brokerages_name WHERE name = ? ORDER BY name, id LIMIT ?"

  static let prefixCountSQL = """
    SELECT count(*) FROM (SELECT 1 FROM brokerages INDEXED BY brokerages_name WHERE name >= ? AND name < ? LIMIT ?)
    """
  static let prefixSQL = """
    SELECT id, name FROM brokerages INDEXED BY brokerages_name WHERE name >= ? AND name < ?
    ORDER BY length(name), name, id LIMIT ?
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
      LIMIT ?
      """
  static let maximumLengthSQL = "SELECT max(length(name)) FROM brokerages INDEXED BY brokerages_rank"

  static let wordCountSQL = """
    SELECT count(*) FROM (
      SELECT 1 FROM brokerage_words INDEXED BY brokerage_words_word WHERE word >= ? AND word < ? LIMIT ?)
    """
  static let wordPrefixSQL = """
    SELECT id, name FROM brokerages
    WHERE id IN (SELECT brokerage_id FROM brokerage_words INDEXED BY brokerage_words_word WHERE word >= ? AND word < ?)
    ORDER BY length(name), name, id LIMIT ?
    """
  /// For each length (from the first argument to the second), how many word rows match, up to
  /// the last argument.
  static let wordCountsByLengthSQL =
    lengthsCTE + """
      SELECT n, (
        SELECT count(*) FROM (
          SELECT 1 FROM brokerage_words INDEXED BY brokerage_words_length
          WHERE name_length = lengths.n AND word >= ? AND word < ? LIMIT ?)) AS matches
      FROM lengths
      """
  static let wordPrefixOfLengthSQL = """
    SELECT id, name FROM brokerages
    WHERE id IN (
      SELECT brokerage_id FROM brokerage_words INDEXED BY brokerage_words_length
      WHERE name_length = ? AND word >= ? AND word < ?)
    ORDER BY name, id LIMIT ?
    """
  static let wordPrefixWalkOfLengthSQL = """
    SELECT id, name FROM brokerages INDEXED BY brokerages_rank
    WHERE length(name) = ? AND EXISTS (
      SELECT 1 FROM brokerage_words INDEXED BY brokerage_words_owner
      WHERE brokerage_id = brokerages.id AND word >= ? AND word < ?)
    ORDER BY name, id LIMIT ?
    """

  static let substringCountSQL = """
    SELECT count(*) FROM (SELECT 1 FROM brokerage_trigrams WHERE brokerage_trigrams MATCH ? LIMIT ?)
    """
  static let substringSQL = """
    SELECT b.id, b.name FROM brokerage_trigrams t JOIN brokerages b ON b.rowid = t.rowid
    WHERE brokerage_trigrams MATCH ?
    ORDER BY length(b.name), b.name, b.id LIMIT ?
    """
  /// Many substring matches: walk the rank order. For a name of printable ASCII, the trigram
  /// match is exactly `instr(lower(name), query)`; any other name is checked against the trigram
  /// index itself (``substringCheckSQL``), so the results are the index's.
  ///
  /// One page: the rows after a position of the rank order (a length, then a name and an id of
  /// that length; `0, 0, '', ''` from the start), up to the last argument.
  static let substringWalkSQL = """
    SELECT id, name, rowid, name GLOB '*[^ -~]*' AS non_ascii, length(name) AS name_length
    FROM brokerages INDEXED BY brokerages_rank
    WHERE (instr(lower(name), ?) > 0 OR name GLOB '*[^ -~]*')
      AND length(name) >= ? AND (length(name) > ? OR (name, id) > (?, ?))
    ORDER BY length(name), name, id LIMIT ?
    """
  static let substringCheckSQL = "SELECT 1 FROM brokerage_trigrams WHERE rowid = ? AND brokerage_trigrams MATCH ?"
  /// Queries shorter than a trigram cannot use the trigram index: walk the rank order.
  static let shortSubstringSQL = """
    SELECT id, name FROM brokerages INDEXED BY brokerages_rank WHERE instr(lower(name), ?) > 0
    ORDER BY length(name), name, id LIMIT ?
    """

  /// Searches with an already normalized query (see ``validate(query:limit:)``).
  static func search(_ db: any SQLDatabase, query: String, limit: Int) async throws -> [Match] {
    // No name holds a NUL, and SQLite functions stop at one: a query with one matches nothing.
    guard !query.unicodeScalars.contains("\u{0}") else { return [] }
    if db.isPostgreSQL { return try await searchPostgreSQL(db, query: query, limit: limit) }
    var results = Results(limit: limit)
    let upper = query + "\u{10FFFF}"
    let queryLength = query.unicodeScalars.count
    let longest = try await db.fetchValue(Int.self, maximumLengthSQL) ?? 0

    try await results.take(db, exactSQL, [query])

    // Prefix
    if !results.isFull, try await count(db, prefixCountSQL, [query, upper]) <= sortThreshold {
      try await results.take(db, prefixSQL, [query, upper])
    } else if !results.isFull {
      try await results.take(db, prefixByLengthSQL, [queryLength, longest, query, upper])
    }

    // Word prefix: a later word's tail is shorter than its name. Lengths are counted a window
    // at a time, each window twice as wide as the last, so that counting stops soon after the
    // limit is filled.
    if !results.isFull, try await count(db, wordCountSQL, [query, upper]) <= sortThreshold {
      try await results.take(db, wordPrefixSQL, [query, upper])
    } else if !results.isFull {
      var from = queryLength + 1
      var window = 1
      while !results.isFull, from <= longest {
        let to = min(from + window - 1, longest)
        let counts = try await db.fetchAll(
          LengthCount.self, wordCountsByLengthSQL, [from, to, query, upper, sortThreshold + 1])
        for (length, matches) in counts.map({ ($0.n, $0.matches) }) where !results.isFull {
          if matches == 0 { continue }
          let sql = matches <= sortThreshold ? wordPrefixOfLengthSQL : wordPrefixWalkOfLengthSQL
          try await results.take(db, sql, [length, query, upper])
        }
        from = to + 1
        window *= 2
      }
    }

    // Substring
    guard !results.isFull else { return results.matches }
    if queryLength < 3 {
      try await results.take(db, shortSubstringSQL, [query])
    } else if try await count(db, substringCountSQL, [ftsPhrase(query)]) <= sortThreshold {
      try await results.take(db, substringSQL, [ftsPhrase(query)])
    } else {
      let phrase = ftsPhrase(query)
      // The position of the last row read: the next page starts after it.
      var after: (length: Int, name: String, id: String) = (0, "", "")
      var page = limit
      walk: while true {
        let rows = try await db.fetchAll(
          WalkRow.self, substringWalkSQL, [query, after.length, after.length, after.name, after.id, page])
        for row in rows {
          guard !results.isFull else { break walk }
          after = (row.nameLength, row.name, row.id)
          if row.nonAscii != 0, try await db.fetchOne(substringCheckSQL, [row.rowid, phrase]) == nil {
            continue
          }
          results.add(id: after.id, name: after.name)
        }
        guard !results.isFull, rows.count == page else { break }
        page = min(page * 2, largestWalkPage)
      }
    }
    return results.matches
  }

  // PostgreSQL: the same tiers, each one statement in rank order that stops at the limit. The
  // planner walks `brokerages_rank` (length, lower(name), id) when matches are many, and uses
  // the prefix indexes (text_pattern_ops) or the trigram index (pg_trgm) when they are few.
  static let rankOrder = #"ORDER BY length(name), lower(name) COLLATE "C", id LIMIT ?"#
  static let postgresExactSQL = "SELECT id, name FROM brokerages WHERE lower(name) = ? " + rankOrder
  static let postgresPrefixSQL = "SELECT id, name FROM brokerages WHERE lower(name) LIKE ? " + rankOrder
  static let postgresWordPrefixSQL = """
    SELECT id, name FROM brokerages
    WHERE id IN (SELECT brokerage_id FROM brokerage_words WHERE lower(word) LIKE ?)
    """ + " " + rankOrder
  static let postgresSubstringSQL = postgresPrefixSQL

  static func searchPostgreSQL(_ db: any SQLDatabase, query: String, limit: Int) async throws -> [Match] {
    var results = Results(limit: limit)
    let pattern = likeEscaped(query)
    try await results.take(db, postgresExactSQL, [query])
    try await results.take(db, postgresPrefixSQL, [pattern + "%"])
    try await results.take(db, postgresWordPrefixSQL, [pattern + "%"])
    try await results.take(db, postgresSubstringSQL, ["%" + pattern + "%"])
    return results.matches
  }

  /// The query as a LIKE pattern that matches it literally (`\` escapes `%`, `_` and itself).
  static func likeEscaped(_ query: String) -> String {
    var escaped = ""
    for character in query {
      if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
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

    /// Adds the rows (id, name) of a statement that ends in `LIMIT ?`, in order, until the
    /// limit is filled. The statement returns at most ``limit`` rows: the number still needed
    /// plus the matches already taken, which it may return again, so it never falls short.
    mutating func take(
      _ db: any SQLDatabase, _ sql: String, _ binds: [any Encodable & Sendable]
    ) async throws {
      guard !isFull else { return }
      for match in try await db.fetchAll(Match.self, sql, binds + [limit]) where !isFull {
        add(id: match.id, name: match.name)
      }
    }
  }

  /// How many rows a counting statement finds, counting at most one more than ``sortThreshold``.
  private static func count(
    _ db: any SQLDatabase, _ sql: String, _ binds: [any Encodable & Sendable]
  ) async throws -> Int {
    try await db.fetchValue(Int.self, sql, binds + [sortThreshold + 1]) ?? 0
  }

  /// The query as one FTS5 phrase: with the trigram tokenizer, a substring match.
  static func ftsPhrase(_ query: String) -> String {
    "\"" + query.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
