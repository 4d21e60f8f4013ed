import Foundation
import TestSupport
import Testing

/// Issue 23: the client links FoundationEssentials only. Full Foundation brings ICU, whose data
/// table alone is 34 MB of a binary. scripts/check-architecture checks the client's sources and
/// products; this checks the program the build made, as the dynamic linker loads it (the test
/// build links the Swift libraries dynamically; a static build is checked by bench/'s size row).
@Suite("what the client links")
struct ClientLinkTests {
  static func libraries(of binary: String) throws -> [String] {
    let text = try ChildProcess("/usr/bin/ldd", [binary], environment: ProcessInfo.processInfo.environment)
      .finish().stdout
    return text.split(separator: "\n").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
  }

  static let fullFoundation = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"]

  static var dynamicallyLinked: Bool {
    #if os(Linux)
      (try? libraries(of: DeckCLI.sandboxBinary).contains("libswiftCore.so")) == true
    #else
      false
    #endif
  }

  @Test(
    "deck loads FoundationEssentials and no library of full Foundation or ICU; the server program does",
    .enabled(if: dynamicallyLinked))
  func noFullFoundation() throws {
    let client = try Self.libraries(of: DeckCLI.binary)
    #expect(client.contains("libFoundationEssentials.so"), "\(client)")
    for library in Self.fullFoundation {
      #expect(!client.contains(library), "deck loads \(library): \(client)")
    }
    // The same check on a program that does link them, so that it can fail.
    let server = try Self.libraries(of: DeckCLI.sandboxBinary)
    #expect(server.contains("libFoundation.so"), "\(server)")
  }
}
