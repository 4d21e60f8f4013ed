import GRDB

/// What happens when a user is created (signup, or the demo account at seed time): the
/// features' equivalents of the backend's `auth.users` triggers.
enum NewUserHooks {
  static func run(_ db: Database, userID: String, email: String) throws {
    try WorkspaceSchema.handleNewUser(db, userID: userID, email: email)
  }
}
