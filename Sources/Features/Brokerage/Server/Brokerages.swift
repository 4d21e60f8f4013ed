import Foundation
package import SQLKit
import SandboxKit

/// Writes brokerages together with their search rows (word tails with their name's length, and
/// trigrams).
package struct BrokerageWriter {
  private let db: any SQLDatabase

  /// How many brokerages one round of statements inserts (each statement runs apart, so seeding
  /// thousands goes by batches).
  static let batchSize = 100

  package init(_ db: any SQLDatabase) {
    self.db = db
  }

  /// Inserts a brokerage whose id derives from its name. Returns false if it already exists.
  @discardableResult
  package func insert(name: String) async throws -> Bool {
    try await insert(id: Self.id(name), name: name)
  }

  /// Inserts brokerages whose ids derive from their names, ``batchSize`` at a time. Returns how
  /// many did not exist yet (of the same name twice, the first is inserted).
  @discardableResult
  package func insert(names: some Sequence<String>) async throws -> Int {
    var inserted = 0
    var batch: [(id: String, name: String)] = []
    for name in names {
      batch.append((Self.id(name), name))
      if batch.count == Self.batchSize {
        inserted += try await insert(batch)
        batch.removeAll(keepingCapacity: true)
      }
    }
    if !batch.isEmpty { inserted += try await insert(batch) }
    return inserted
  }

  /// The namespace of sandbox brokerage ids.
  static let namespace = UUID(uuidString: "6F1C7A52-3E0B-4C8E-9A55-0D2B8F4E1A77")!

  /// The stable id of a brokerage name (a version 5 UUID, lowercase).
  package static func id(_ name: String) -> String {
    NameUUID.make(namespace: namespace, name: name).uuidString.lowercased()
  }

  /// Inserts a brokerage. Returns false if the id already exists.
  @discardableResult
  package func insert(id: String, name: String) async throws -> Bool {
    try await insert([(id, name)]) == 1
  }

  /// A brokerage inserted.
  private struct Inserted: Decodable {
    var rowid: Int64
    var id: String
    var name: String
  }

  /// Inserts brokerages, skipping ids that exist (or came earlier in the batch), with their
  /// trigram and word rows: three statements. Returns how many were inserted.
  private func insert(_ batch: [(id: String, name: String)]) async throws -> Int {
    let rows = try await db.fetchAll(
      Inserted.self,
      "INSERT INTO brokerages (id, name) VALUES \(SQLRows.values("(?, ?)", count: batch.count))"
        + " ON CONFLICT DO NOTHING RETURNING rowid, id, name",
      batch.flatMap { id, name -> [any Encodable & Sendable] in [id, name] })
    guard !rows.isEmpty else { return 0 }
    var trigrams: [any Encodable & Sendable] = []
    var words: [any Encodable & Sendable] = []
    for (rowID, id, name) in rows.map({ ($0.rowid, $0.id, $0.name) }) {
      trigrams += [rowID, name]
      for (position, tail) in BrokerageWords.laterWordTails(of: name) {
        words += [tail, id, position, name]
      }
    }
    // PostgreSQL's trigram index is on brokerages itself.
    if !db.isPostgreSQL {
      try await db.execute(
        "INSERT INTO brokerage_trigrams (rowid, name) VALUES \(SQLRows.values("(?, ?)", count: rows.count))", trigrams)
    }
    if !words.isEmpty {
      try await db.execute(
        "INSERT INTO brokerage_words (word, brokerage_id, position, name_length) VALUES "
          + SQLRows.values("(?, ?, ?, length(?))", count: words.count / 4), words)
    }
    return rows.count
  }
}

/// How brokerage names split into words for word-prefix search.
enum BrokerageWords {
  /// For each word after the first, its position (1-based among later words) and the rest of
  /// the name from that word on. A word starts at a letter or digit that follows a character
  /// other than a letter, a digit or an apostrophe: "RE/MAX Alliance" gives "MAX Alliance" and
  /// "Alliance"; "Sotheby's" stays one word.
  static func laterWordTails(of name: String) -> [(position: Int, tail: String)] {
    var tails: [(position: Int, tail: String)] = []
    var previous: Character?
    var index = name.startIndex
    var position = 0
    while index < name.endIndex {
      let character = name[index]
      if isWordCharacter(character), let previous, !isWordCharacter(previous), !isApostrophe(previous) {
        position += 1
        tails.append((position, String(name[index...])))
      }
      previous = character
      index = name.index(after: index)
    }
    return tails
  }

  private static func isWordCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber
  }

  private static func isApostrophe(_ character: Character) -> Bool {
    character == "'" || character == "\u{2019}"
  }
}
