import Foundation
import GRDB
import SandboxKit

/// Writes brokerages together with their search rows (word tails with their name's length, and
/// trigrams).
package struct BrokerageWriter {
  private let insertBrokerage: Statement
  private let insertTrigram: Statement
  private let insertWord: Statement
  private let db: Database

  package init(_ db: Database) throws {
    self.db = db
    insertBrokerage = try db.cachedStatement(sql: "INSERT OR IGNORE INTO brokerages (id, name) VALUES (?, ?)")
    insertTrigram = try db.cachedStatement(sql: "INSERT INTO brokerage_trigrams (rowid, name) VALUES (?, ?)")
    insertWord = try db.cachedStatement(
      sql: "INSERT INTO brokerage_words (word, brokerage_id, position, name_length) VALUES (?, ?, ?, length(?))")
  }

  /// Inserts a brokerage whose id derives from its name. Returns false if it already exists.
  @discardableResult
  package func insert(name: String) throws -> Bool {
    try insert(id: Self.id(name), name: name)
  }

  /// The namespace of sandbox brokerage ids.
  static let namespace = UUID(uuidString: "6F1C7A52-3E0B-4C8E-9A55-0D2B8F4E1A77")!

  /// The stable id of a brokerage name (a version 5 UUID, lowercase).
  package static func id(_ name: String) -> String {
    NameUUID.make(namespace: namespace, name: name).uuidString.lowercased()
  }

  /// Inserts a brokerage. Returns false if the id already exists.
  @discardableResult
  package func insert(id: String, name: String) throws -> Bool {
    insertBrokerage.setUncheckedArguments([id, name])
    try insertBrokerage.execute()
    guard db.changesCount > 0 else { return false }
    insertTrigram.setUncheckedArguments([db.lastInsertedRowID, name])
    try insertTrigram.execute()
    for (position, tail) in BrokerageWords.laterWordTails(of: name) {
      insertWord.setUncheckedArguments([tail, id, position, name])
      try insertWord.execute()
    }
    return true
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
