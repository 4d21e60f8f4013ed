internal import SQLKit
import SandboxKit

/// The kiosk tables of the sandbox: stores, their orders (with items) and the review
/// sessions the purchase webhook creates for them.
enum KioskSchema {
  static func register(in migrations: inout SchemaMigrations) {
    migrations.add(
      "v1-kiosk",
      script: """
        CREATE TABLE kiosk_stores (
          public_id TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL,
          review_url TEXT NOT NULL,
          -- No foreign key: a store and its sessions point at each other.
          last_approved_session_id TEXT,
          created_at TEXT NOT NULL
        );
        CREATE TABLE kiosk_orders (
          public_id TEXT PRIMARY KEY NOT NULL,
          store_public_id TEXT NOT NULL REFERENCES kiosk_stores(public_id) ON DELETE CASCADE,
          total_amount INTEGER NOT NULL CHECK (total_amount > 0),
          currency TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE TABLE kiosk_order_items (
          order_public_id TEXT NOT NULL REFERENCES kiosk_orders(public_id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          name TEXT NOT NULL,
          quantity INTEGER NOT NULL CHECK (quantity > 0),
          amount INTEGER NOT NULL CHECK (amount >= 0),
          PRIMARY KEY (order_public_id, position)
        );
        CREATE TABLE kiosk_review_sessions (
          public_id TEXT PRIMARY KEY NOT NULL,
          store_public_id TEXT NOT NULL REFERENCES kiosk_stores(public_id) ON DELETE CASCADE,
          order_public_id TEXT NOT NULL REFERENCES kiosk_orders(public_id) ON DELETE CASCADE,
          status TEXT NOT NULL
            CHECK (status IN ('PENDING', 'RATED', 'APPROVED', 'DECLINED', 'POSTED_INTENT')),
          star_rating INTEGER CHECK (star_rating BETWEEN 1 AND 5),
          generated_review_text TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        -- `next`: the store's newest PENDING session (rowid order is creation order).
        CREATE INDEX kiosk_review_sessions_store_status ON kiosk_review_sessions(store_public_id, status);
        """)
  }
}

/// Default kiosk data: the seeded store `store_demo` (and `store_abc123`, the spec's example
/// id, so that re-pairing to another store can be tried).
enum KioskSeed {
  static let stores: [(id: String, name: String)] = [
    ("store_demo", "Boutique GEO Demo"),
    ("store_abc123", "Boutique GEO Uptown"),
  ]

  static func seed(_ db: any SQLDatabase) async throws {
    for store in stores {
      try await db.execute(
        """
        INSERT INTO kiosk_stores (public_id, name, review_url, created_at) VALUES (?, ?, ?, ?)
        ON CONFLICT DO NOTHING
        """,
        [store.id, store.name, KioskStore.reviewURL(storeName: store.name), Timestamps.now()])
    }
  }
}
