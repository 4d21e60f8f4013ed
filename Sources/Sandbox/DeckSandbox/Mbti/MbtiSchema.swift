import GRDB

/// The nudge service's tables: the analytics events the quiz emits and the results it scored.
enum MbtiSchema {
  static func register(in migrator: inout DatabaseMigrator) {
    migrator.registerMigration("v1-mbti") { db in
      try db.execute(
        sql: """
          CREATE TABLE mbti_events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id TEXT NOT NULL,
            event_type TEXT NOT NULL,
            details TEXT NOT NULL,
            created_at TEXT NOT NULL
          );
          CREATE INDEX mbti_events_user ON mbti_events(user_id, id);
          CREATE TABLE mbti_results (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id TEXT NOT NULL,
            profile TEXT NOT NULL,
            scores TEXT NOT NULL,
            created_at TEXT NOT NULL
          );
          CREATE INDEX mbti_results_user ON mbti_results(user_id, id);
          """)
    }
  }
}
