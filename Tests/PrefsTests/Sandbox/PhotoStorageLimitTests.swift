import Foundation
import PrefsRules
import TestSupport
import Testing

@testable import PrefsServer
@testable import SandboxKit

/// Issue 44: storage refuses a decompression bomb by its header (finding 8), and keeps one
/// object per user, the avatar, so that no user stores more than 5 MB (finding 12).
extension PhotoStorageTests {
  @Test("an image whose header declares more than 40 megapixels is refused; nothing is stored")
  func decompressionBombIsRefused() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let bomb = PhotoTestImages.bomb(width: 50_000, height: 50_000)
      let refused = try await request(base, "POST", athletePath, body: bomb, bearer: athlete)
      #expect(refused.status == 400, "\(refused.object)")
      #expect(refused.object["error"] as? String == "invalid_image")
      #expect(refused.message.contains("50000×50000"))
      #expect(try await request(base, "GET", athletePath, bearer: athlete).status == 404)
      // 40 megapixels exactly is taken (the header is all that is read).
      let largest = PhotoTestImages.bomb(width: 8_000, height: 5_000)
      #expect(try await request(base, "POST", athletePath, body: largest, bearer: athlete).status == 200)
      // A header with no size is refused too.
      let headless = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])
      #expect(try await request(base, "POST", athletePath, body: headless, bearer: athlete).status == 400)
    }
  }

  @Test("a user's folder holds the avatar and nothing else")
  func onlyTheAvatarIsStored() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let png = PhotoTestImages.png(width: 4, height: 4)
      for name in ["other", "avatar2", "a"] {
        let path = "/storage/v1/object/profile-photos/\(athleteID)/\(name)"
        let upload = try await request(base, "POST", path, body: png, bearer: athlete)
        #expect(upload.status == 400, "\(name): \(upload.object)")
        #expect(upload.object["error"] as? String == "InvalidKey")
        #expect(try await request(base, "PUT", path, body: png, bearer: athlete).status == 400)
      }
      #expect(try await request(base, "POST", athletePath, body: png, bearer: athlete).status == 200)
    }
  }
}
