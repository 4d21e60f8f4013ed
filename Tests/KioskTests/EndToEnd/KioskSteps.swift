import Foundation
import TestSupport
import Testing

/// The steps the kiosk's end-to-end suites share.
protocol KioskSteps {}

extension KioskSteps {
  /// Runs deck and decodes its stdout as a JSON object; fails the test on a non-zero exit.
  @discardableResult
  func object(_ deck: DeckCLI, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String: Any]
  {
    let result = try deck.run(arguments)
    #expect(
      result.status == 0, "deck \(arguments.joined(separator: " ")): \(result.stderr)", sourceLocation: sourceLocation)
    return try #require(try json(result.stdout) as? [String: Any], sourceLocation: sourceLocation)
  }

  /// A PENDING session bought at the store; returns its public id.
  func purchase(_ deck: DeckCLI, store: String = "store_demo", _ extra: [String] = []) throws -> String {
    let session = try object(deck, ["sandbox", "trigger", "purchase", "--store", store, "--json"] + extra)
    #expect(session["status"] as? String == "PENDING")
    return try #require(session["publicId"] as? String)
  }
}
