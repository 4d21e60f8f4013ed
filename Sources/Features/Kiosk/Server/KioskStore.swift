import Foundation
import KioskRules
internal import SQLKit
import SandboxKit

/// The kiosk backend's data and rules on the sandbox database: stores, orders, review
/// sessions and their status transitions (PENDING → RATED → APPROVED | DECLINED,
/// APPROVED → POSTED_INTENT). Every transition checks and changes the status in one write
/// transaction (its caller's ``SandboxDatabase/write(_:)``, a `BEGIN IMMEDIATE` that holds the
/// write lock from the first read), so two kiosks racing for a session cannot both move it.
enum KioskStore {
  /// A row of `kiosk_stores` (decoded by its columns' names, ``SQLRow/decode(_:)``).
  struct Store: Sendable, Decodable {
    var publicId: String
    var name: String
    var reviewURL: String
    var lastApprovedSessionId: String?

    /// Its columns' names, in camel case.
    private enum CodingKeys: String, CodingKey {
      case publicId, name, lastApprovedSessionId
      case reviewURL = "reviewUrl"
    }
  }

  struct Order: Sendable {
    var publicId: String
    var totalAmount: Int
    var currency: String
    var items: [KioskOrderItem]
  }

  /// A row of `kiosk_review_sessions` (decoded by its columns' names, ``SQLRow/decode(_:)``).
  struct Session: Sendable, Decodable {
    var publicId: String
    var storePublicId: String
    var orderPublicId: String
    var status: KioskSessionStatus
    var starRating: Int?
    var generatedReviewText: String?
    var createdAt: String
    var updatedAt: String
  }

  /// What a kiosk call can fail with; the handlers turn it into 404, 400 or 409.
  enum Failure: Error, Equatable {
    case storeNotFound(String)
    case sessionNotFound(String, store: String?)
    case invalid(String)
    case conflict(String)

    var message: String {
      switch self {
      case .storeNotFound(let id): "Store \"\(id)\" not found."
      case .sessionNotFound(let id, let store?): "Review session \"\(id)\" not found at store \"\(store)\"."
      case .sessionNotFound(let id, nil): "Review session \"\(id)\" not found."
      case .invalid(let message), .conflict(let message): message
      }
    }
  }

  static let maximumItems = 20
  static let maximumTotal = 100_000_000
  static let maximumItemName = 100

  // MARK: Stores

  /// Adds a store with no sessions; false when its id is taken.
  static func createStore(_ db: any SQLDatabase, id: String, name: String) async throws -> Bool {
    guard try await store(db, id) == nil else { return false }
    try await db.execute(
      "INSERT INTO kiosk_stores (public_id, name, review_url, created_at) VALUES (?, ?, ?, ?)",
      [id, name, reviewURL(storeName: name), Timestamps.now()])
    return true
  }

  /// Whether a store's public id may hold this byte: letters, digits, `_` and `-`.
  static func isStoreIDByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"), UInt8(ascii: "-"):
      true
    default: false
    }
  }

  // MARK: Reading

  static func store(_ db: any SQLDatabase, _ id: String) async throws -> Store? {
    try await db.fetchOne(
      Store.self,
      "SELECT public_id, name, review_url, last_approved_session_id FROM kiosk_stores WHERE public_id = ?", [id])
  }

  static func requireStore(_ db: any SQLDatabase, _ id: String) async throws -> Store {
    guard let store = try await store(db, id) else { throw Failure.storeNotFound(id) }
    return store
  }

  static func session(_ db: any SQLDatabase, _ id: String) async throws -> Session? {
    try await db.fetchOne(Session.self, "SELECT * FROM kiosk_review_sessions WHERE public_id = ?", [id])
  }

  static func order(_ db: any SQLDatabase, _ id: String) async throws -> Order? {
    /// A row of `kiosk_orders`.
    struct OrderRow: Decodable {
      var publicId: String
      var totalAmount: Int
      var currency: String
    }
    guard
      let row = try await db.fetchOne(
        OrderRow.self, "SELECT public_id, total_amount, currency FROM kiosk_orders WHERE public_id = ?", [id])
    else { return nil }
    let items = try await db.fetchAll(
      KioskOrderItem.self,
      "SELECT name, quantity, amount FROM kiosk_order_items WHERE order_public_id = ? ORDER BY position", [id])
    return Order(publicId: row.publicId, totalAmount: row.totalAmount, currency: row.currency, items: items)
  }

  /// The store's newest PENDING session and its order: the customer who just paid.
  static func nextPending(_ db: any SQLDatabase, store: String) async throws -> (Session, Order?)? {
    _ = try await requireStore(db, store)
    guard
      let found = try await db.fetchOne(
        Session.self,
        """
        SELECT * FROM kiosk_review_sessions WHERE store_public_id = ? AND status = 'PENDING'
        ORDER BY rowid DESC LIMIT 1
        """, [store])
    else { return nil }
    return (found, try await order(db, found.orderPublicId))
  }

  /// How many of the store's sessions are in each status.
  static func statusCounts(_ db: any SQLDatabase, store: String) async throws -> [KioskSessionStatus: Int] {
    var counts = Dictionary(uniqueKeysWithValues: KioskSessionStatus.allCases.map { ($0, 0) })
    /// The number of sessions in one status.
    struct Count: Decodable {
      var status: KioskSessionStatus
      var n: Int
    }
    for count in try await db.fetchAll(
      Count.self,
      "SELECT status, count(*) AS n FROM kiosk_review_sessions WHERE store_public_id = ? GROUP BY status", [store])
    {
      counts[count.status] = count.n
    }
    return counts
  }

  // MARK: Transitions

  /// PENDING → RATED, with the review generated from the rating and the order's items.
  static func rate(_ db: any SQLDatabase, store storeId: String, session sessionId: String, rating: Int)
    async throws -> String
  {
    let store = try await requireStore(db, storeId)
    let session = try await requireSession(db, sessionId, store: storeId)
    guard KioskRules.ratings.contains(rating) else {
      throw Failure.invalid("starRating must be between 1 and 5, got \(rating).")
    }
    try require(session, canMoveTo: .rated, action: "rate")
    let items = try await order(db, session.orderPublicId)?.items ?? []
    let text = ReviewWriter.write(rating: rating, items: items, storeName: store.name)
    try await db.execute(
      """
      UPDATE kiosk_review_sessions SET status = 'RATED', star_rating = ?, generated_review_text = ?, updated_at = ?
      WHERE public_id = ?
      """,
      [rating, text, Timestamps.now(), sessionId])
    return text
  }

  /// RATED → APPROVED, and the store's lastApprovedSessionId; or RATED → DECLINED.
  static func consent(_ db: any SQLDatabase, store storeId: String, session sessionId: String, approve: Bool)
    async throws
  {
    _ = try await requireStore(db, storeId)
    let session = try await requireSession(db, sessionId, store: storeId)
    let target: KioskSessionStatus = approve ? .approved : .declined
    try require(session, canMoveTo: target, action: approve ? "approve" : "decline")
    try await setStatus(db, sessionId, target)
    if approve {
      try await db.execute(
        "UPDATE kiosk_stores SET last_approved_session_id = ? WHERE public_id = ?", [sessionId, storeId])
    }
  }

  /// APPROVED → POSTED_INTENT.
  static func markDone(_ db: any SQLDatabase, session sessionId: String) async throws {
    guard let session = try await session(db, sessionId) else {
      throw Failure.sessionNotFound(sessionId, store: nil)
    }
    try require(session, canMoveTo: .postedIntent, action: "mark done")
    try await setStatus(db, sessionId, .postedIntent)
  }

  // MARK: Purchases (the webhook)

  /// Creates an order and its PENDING session. Without items, one to three are picked from
  /// the catalogue; without a total, the items' prices make it; with both, the total is
  /// spread over the items.
  static func createPurchase(
    _ db: any SQLDatabase, store storeId: String, totalAmount: Int?, itemNames: [String]?
  ) async throws -> Session {
    _ = try await requireStore(db, storeId)
    if let totalAmount, !(1...maximumTotal).contains(totalAmount) {
      throw Failure.invalid("totalAmount must be between 1 and \(maximumTotal) cents, got \(totalAmount).")
    }
    var names: [String] = []
    for raw in itemNames ?? [] {
      let name = raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      guard !name.isEmpty else { throw Failure.invalid("An item name is empty.") }
      guard name.count <= maximumItemName else {
        throw Failure.invalid("Item names are at most \(maximumItemName) characters.")
      }
      names.append(name)
    }
    guard names.count <= maximumItems else { throw Failure.invalid("At most \(maximumItems) items per purchase.") }
    if names.isEmpty { names = Catalogue.pick() }

    // One line per distinct name (case-insensitively), counting repeats.
    var lines: [(name: String, quantity: Int)] = []
    for name in names {
      if let index = lines.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
        lines[index].quantity += 1
      } else {
        lines.append((name, 1))
      }
    }
    var items = lines.map {
      KioskOrderItem(name: $0.name, quantity: $0.quantity, amount: Catalogue.price(of: $0.name) * $0.quantity)
    }
    if let totalAmount {
      // Spread the total over the units; the last line takes the remainder.
      let units = items.reduce(0) { $0 + $1.quantity }
      let perUnit = totalAmount / units
      for index in items.indices { items[index].amount = perUnit * items[index].quantity }
      items[items.count - 1].amount += totalAmount - perUnit * units
    }
    let total = items.reduce(0) { $0 + $1.amount }

    let now = Timestamps.now()
    let orderId = newId("ord")
    let sessionId = newId("sess")
    try await db.execute(
      "INSERT INTO kiosk_orders (public_id, store_public_id, total_amount, currency, created_at) VALUES (?, ?, ?, 'USD', ?)",
      [orderId, storeId, total, now])
    for (position, item) in items.enumerated() {
      try await db.execute(
        "INSERT INTO kiosk_order_items (order_public_id, position, name, quantity, amount) VALUES (?, ?, ?, ?, ?)",
        [orderId, position, item.name, item.quantity, item.amount])
    }
    try await db.execute(
      """
      INSERT INTO kiosk_review_sessions (public_id, store_public_id, order_public_id, status, created_at, updated_at)
      VALUES (?, ?, ?, 'PENDING', ?, ?)
      """,
      [sessionId, storeId, orderId, now, now])
    return Session(
      publicId: sessionId, storePublicId: storeId, orderPublicId: orderId, status: .pending, createdAt: now,
      updatedAt: now)
  }

  /// Where the landing page's Post button sends the customer: the store's public review page.
  static func reviewURL(storeName: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    let query = storeName.addingPercentEncoding(withAllowedCharacters: allowed) ?? "review"
    return "https://www.google.com/maps/search/?api=1&query=\(query)"
  }

  // MARK: Private

  private static func requireSession(_ db: any SQLDatabase, _ id: String, store: String) async throws -> Session {
    guard let session = try await session(db, id), session.storePublicId == store else {
      throw Failure.sessionNotFound(id, store: store)
    }
    return session
  }

  private static func require(_ session: Session, canMoveTo target: KioskSessionStatus, action: String) throws {
    guard session.status.canMove(to: target) else {
      let from = KioskSessionStatus.required(for: target)?.rawValue ?? "other"
      let article = "AEIOU".contains(from.prefix(1)) ? "an" : "a"
      throw Failure.conflict(
        "Cannot \(action) review session \"\(session.publicId)\": it is \(session.status.rawValue); only \(article) \(from) session can become \(target.rawValue)."
      )
    }
  }

  private static func setStatus(_ db: any SQLDatabase, _ id: String, _ status: KioskSessionStatus) async throws {
    try await db.execute(
      "UPDATE kiosk_review_sessions SET status = ?, updated_at = ? WHERE public_id = ?",
      [status.rawValue, Timestamps.now(), id])
  }

  /// `sess_` and 12 random lowercase letters and digits.
  static func newId(_ prefix: String) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    return prefix + "_" + String((0..<12).map { _ in alphabet.randomElement()! })
  }
}

/// The demo boutique's catalogue: what random purchases are made of, and the prices of
/// items named on the command line.
enum Catalogue {
  static let items: [(name: String, price: Int)] = [
    ("Handmade Scarf", 3800), ("Linen Tote Bag", 2400), ("Soy Candle", 1800), ("Ceramic Mug", 2200),
    ("Silver Hoop Earrings", 4500), ("Leather Card Wallet", 3200), ("Botanical Print", 2800),
    ("Wool Beanie", 2600), ("Hand Cream", 1400), ("Silk Scrunchie", 900), ("Linen Napkin Set", 3000),
    ("Beeswax Wrap Set", 1600),
  ]

  /// One to three distinct catalogue items, at random.
  static func pick() -> [String] {
    Array(items.shuffled().prefix(Int.random(in: 1...3)).map(\.name))
  }

  /// The catalogue price, or a stable made-up one ($8 to $47) for other names.
  static func price(of name: String) -> Int {
    if let item = items.first(where: { $0.name.lowercased() == name.lowercased() }) { return item.price }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.lowercased().utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    return 800 + Int(hash % 40) * 100
  }
}
