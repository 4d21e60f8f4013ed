import Foundation

/// A directory removed when the test ends.
public final class TemporaryDirectory {
  public let path: String
  public init() throws {
    path = NSTemporaryDirectory() + "deck-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(atPath: path) }
}
