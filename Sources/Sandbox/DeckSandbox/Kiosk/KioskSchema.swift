import GRDB

/// The kiosk tables of the sandbox.
enum KioskSchema {
  static func register(in migrator: inout DatabaseMigrator) {}
}

/// Default kiosk data: the seeded store `store_demo`.
enum KioskSeed {
  static func seed(_ db: Database) throws {}
}
