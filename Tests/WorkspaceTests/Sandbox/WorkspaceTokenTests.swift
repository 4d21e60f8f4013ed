import TestSupport
import Testing

@testable import WorkspaceServer

@Suite struct WorkspaceTokenTests {
  /// An invite token is pasted into `deck workspace invite accept TOKEN`: one that began with
  /// `-` (a base64url token does one time in 64) was taken for an option (exit 64).
  @Test func inviteTokensAreUnguessableWordsThatNeverLookLikeAnOption() {
    let tokens = (0..<2_000).map { _ in WorkspaceInvites.newToken() }
    #expect(Set(tokens).count == tokens.count)
    for token in tokens {
      #expect(token.count == 64 && token.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(token)")
    }
  }
}
