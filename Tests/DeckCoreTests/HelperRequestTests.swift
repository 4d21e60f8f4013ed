import DeckHelper
import Testing

/// The start-up helper's request (docs/HELPER.md, "Protocol"): what the launcher sends, decoded
/// by the helper's child. A malformed request is refused with a reason, never trusted.
@Suite("Helper request")
struct HelperRequestTests {
  let request = HelperRequest(
    workingDirectory: Array("/home/ana/projects".utf8), umask: 0o022, ignoredSignals: 1 << 12,
    blockedSignals: UInt64.max, arguments: ["deck", "brokerage", "search", "keller williams", ""],
    environment: [Array("HOME=/home/ana".utf8), Array("EMPTY=".utf8), [0x4c, 0x3d, 0xff, 0xfe]])

  @Test func aPayloadDecodesToTheRequestItCameFrom() throws {
    #expect(try HelperRequest(payload: request.payload) == request)
  }

  /// The fields the C launcher writes, byte for byte (Sources/Launcher/main.c, `pack`).
  @Test func theLaunchersLayoutIsNULTerminatedStrings() throws {
    let bytes = Array("/tmp\u{0}18\u{0}0\u{0}0\u{0}2\u{0}deck\u{0}--version\u{0}A=1\u{0}".utf8)
    let decoded = try HelperRequest(payload: bytes)
    #expect(decoded.workingDirectory == Array("/tmp".utf8))
    #expect(decoded.umask == 18)
    #expect(decoded.arguments == ["deck", "--version"])
    #expect(decoded.environment == [Array("A=1".utf8)])
    #expect(decoded.payload == bytes)
  }

  @Test(arguments: [
    ("/tmp\u{0}18\u{0}0\u{0}0\u{0}1\u{0}deck", "does not end with a NUL"),
    ("/tmp\u{0}18\u{0}0\u{0}0\u{0}", "fewer than 5"),
    ("/tmp\u{0}u=rwx\u{0}0\u{0}0\u{0}1\u{0}deck\u{0}", "umask is not a decimal number"),
    ("/tmp\u{0}18\u{0}-1\u{0}0\u{0}1\u{0}deck\u{0}", "ignored-signal mask is not a decimal number"),
    ("/tmp\u{0}18\u{0}0\u{0}18446744073709551616\u{0}1\u{0}deck\u{0}", "blocked-signal mask is not a decimal number"),
    ("/tmp\u{0}18\u{0}0\u{0}0\u{0}0\u{0}", "argument count 0"),
    ("/tmp\u{0}18\u{0}0\u{0}0\u{0}3\u{0}deck\u{0}x\u{0}", "argument count 3 does not match the 2 strings"),
    ("/tmp\u{0}18\u{0}0\u{0}0\u{0}9223372036854775807\u{0}deck\u{0}", "argument count 9223372036854775807"),
  ])
  func aMalformedPayloadIsRefusedWithItsReason(payload: String, reason: String) {
    #expect {
      _ = try HelperRequest(payload: Array(payload.utf8))
    } throws: { error in
      (error as? HelperProtocolError)?.description.contains(reason) == true
    }
  }

  @Test func anEmptyPayloadIsRefused() {
    #expect(throws: HelperProtocolError.malformed("the request does not end with a NUL")) {
      try HelperRequest(payload: [])
    }
  }
}
