import Foundation
import TestSupport
import Testing

/// deck loads libvips only when a photo command needs it (System/CVips), so a system without it
/// (the deck package only recommends libvips42) runs every other command, and a photo command
/// says what to install.
@Suite("Profile photo without libvips", .endToEndTimeLimit)
struct PhotoLibraryEndToEndTests {
  @Test("without a loadable libvips, photo set exits 69 naming the package; other commands run")
  func missingLibrary() async throws {
    try await offThePool {
      let (server, deck) = try DeckCLI.signedIn()
      defer { withExtendedLifetime((server, deck)) {} }
      // An empty libvips.so.42 found first: dlopen fails on it as on a system without libvips.
      let libraries = deck.home + "/lib"
      try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
      try Data().write(to: URL(fileURLWithPath: libraries + "/libvips.so.42"))
      let path = deck.home + "/me.png"
      try PhotoTestImages.png(width: 8, height: 6).write(to: URL(fileURLWithPath: path))
      let without = ["LD_LIBRARY_PATH": libraries]

      let photo = try deck.run(["prefs", "photo", "set", path], environment: without)
      #expect(photo.status == 69, "\(photo.all)")
      #expect(photo.stderr.contains("The image library libvips could not be loaded"), "\(photo.stderr)")
      #expect(photo.stderr.contains("apt-get install libvips42"), "\(photo.stderr)")
      #expect(photo.stdout.isEmpty)

      let search = try deck.run(["brokerage", "search", "keller"], environment: without)
      #expect(search.status == 0, "\(search.stderr)")
      #expect(search.stdout.contains("Keller"))
    }
  }
}
