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
      #expect(try await request(base, "GET", athletePath, bearer: athlete).real == 404)
      // 40 megapixels exactly is taken (the header is all that is read).
      let largest = PhotoTestImages.bomb(width: 8_000, height: 5_000)
      #expect(try await request(base, "POST", athletePath, body: largest, bearer: athlete).status == 200)
      // A header with no size is refused too.
      let headless = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])
      #expect(try await request(base, "POST", athletePath, body: headless, bearer: athlete).status == 400)
    }
  }

  @Test("a user's folder holds at most 10 objects and 5 MB in all; names are checked")
  func aFolderHasAQuota() async throws {
    try await withSandbox { base in
      let athlete = try await token(base, PrefsServer.athleteEmail)
      let folder = "/storage/v1/object/profile-photos/\(athleteID)/"
      let png = PhotoTestImages.png(width: 4, height: 4)
      for index in 0..<PhotoStorageStore.objectsPerFolder {
        let upload = try await request(base, "POST", folder + "photo-\(index)", body: png, bearer: athlete)
        #expect(upload.status == 200, "\(index): \(upload.object)")
      }
      let eleventh = try await request(base, "POST", folder + "one-more", body: png, bearer: athlete)
      #expect(eleventh.real == 413 && eleventh.message.contains("at most 10 objects"), "\(eleventh.object)")
      // Replacing one of the ten is not an eleventh.
      let replaced = try await request(
        base, "POST", folder + "photo-0", body: png, bearer: athlete, headers: ["x-upsert": "true"])
      #expect(replaced.status == 200)
      for index in 1..<PhotoStorageStore.objectsPerFolder {
        #expect(try await request(base, "DELETE", folder + "photo-\(index)", bearer: athlete).status == 200)
      }
      // 5 MB in all: an object that would take the folder past it is refused.
      var big = PhotoTestImages.png(width: 1000, height: 1000)
      big.append(Data(count: ProfilePhoto.maximumBytes - big.count - png.count - 10))
      #expect(try await request(base, "POST", folder + "big", body: big, bearer: athlete).status == 200)
      let over = try await request(base, "POST", folder + "over", body: png, bearer: athlete)
      #expect(over.real == 413, "\(over.object)")
      #expect(try await request(base, "GET", folder + "over", bearer: athlete).real == 404, "nothing stored")
      // A name with a control character, or a dot segment, is not a key.
      let invalid = try await request(base, "POST", folder + "a%01b", body: png, bearer: athlete)
      #expect(invalid.real == 400 && invalid.object["error"] as? String == "InvalidKey", "\(invalid.object)")
    }
  }
}
