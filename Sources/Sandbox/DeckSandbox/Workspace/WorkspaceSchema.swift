import GRDB

/// The workspace tables of the sandbox.
enum WorkspaceSchema {
  static func register(in migrator: inout DatabaseMigrator) {}

  /// The spec's `handle_new_user()`.
  static func handleNewUser(_ db: Database, userID: String, email: String) throws {}
}

/// Default workspace data (runs after the demo account exists).
enum WorkspaceSeed {
  static func seed(_ db: Database) throws {}
}
