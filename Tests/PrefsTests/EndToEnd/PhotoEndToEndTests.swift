import Foundation
import PrefsRules
import TestSupport
import Testing

/// `deck prefs photo` through the real binary against `deck sandbox serve`: the profile photo of
/// preferences.md §2A (5 MB max, auto-compress), stored in the sandbox's Supabase Storage.
@Suite("Profile photo", .endToEndTimeLimit)
struct PhotoEndToEndTests {
  func photo(_ deck: DeckCLI, _ arguments: [String], status: Int32 = 0) throws -> DeckCLI.Result {
    let result = try deck.run(["prefs", "photo"] + arguments)
    #expect(result.status == status, "deck prefs photo \(arguments.joined(separator: " ")): \(result.stderr)")
    return result
  }

  func object(_ result: DeckCLI.Result) throws -> [String: Any] {
    try #require(try json(result.stdout) as? [String: Any], "\(result.stdout) \(result.stderr)")
  }

  /// Runs a shell line with `$DECK` set to the binary, in deck's environment (for binary stdin
  /// and stdout, which the harness carries as text).
  func shell(_ deck: DeckCLI, _ line: String) throws -> DeckCLI.Result {
    try DeckCLI.execute(
      "/bin/sh", ["-c", line], stdin: nil, environment: deck.environment.merging(["DECK": DeckCLI.binary]) { $1 },
      in: deck.home)
  }

  func write(_ data: Data, _ deck: DeckCLI, _ name: String) throws -> String {
    let path = deck.home + "/" + name
    try data.write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("a small PNG is stored as it is and comes back byte for byte, to a file and to stdout")
  func roundTrip() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let png = PhotoTestImages.png(width: 40, height: 30)
    // The name says JPEG; the bytes say PNG, and the bytes win.
    let path = try write(png, deck, "me.jpg")
    let set = try object(try photo(deck, ["set", path, "--json"]))
    #expect(set["type"] as? String == "png")
    #expect(set["size"] as? Int == png.count)
    #expect(set["width"] as? Int == 40)
    #expect(set["height"] as? Int == 30)
    #expect(set["compression"] is NSNull, "under 5 MB: stored as it is")
    let human = try photo(deck, ["set", path])
    #expect(human.stderr.contains("Saved the profile photo of athlete@sandbox.test: PNG, 40×30, 3.6 KB."))

    let out = deck.home + "/back.png"
    let got = try object(try photo(deck, ["get", "--output", out, "--json"]))
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == png)
    #expect(got["type"] as? String == "png")
    #expect(got["width"] as? Int == 40)

    let mixed = try photo(deck, ["get", "--output", "-", "--json"], status: 64)
    #expect(mixed.stderr.contains("where the json result goes too"))
    #expect(mixed.stdout.isEmpty)
    let piped = try shell(deck, #""$DECK" prefs photo get > piped.png"#)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: deck.home + "/piped.png")) == png)

    // From stdin, too.
    let other = PhotoTestImages.png(width: 7, height: 5, seed: 9)
    _ = try write(other, deck, "other.bin")
    let fromStdin = try shell(deck, #""$DECK" prefs photo set - < other.bin"#)
    #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
    _ = try photo(deck, ["get", "-o", out])
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == other)

    let player = try deck.run(["prefs", "get", "player"])
    #expect(player.status == 0, "\(player.stderr)")
    #expect(player.stdout.contains("Profile Photo"))
    #expect(player.stdout.contains("set (PNG, \(ProfilePhoto.sizeText(other.count)))"))
    let playerJSON = try object(try deck.run(["prefs", "get", "player", "--json"]))
    let summary = try #require(playerJSON["photo"] as? [String: Any])
    #expect(summary["set"] as? Bool == true)
    #expect(summary["size"] as? Int == other.count)
  }

  @Test("over 5 MB the photo is shrunk and re-encoded as a JPEG under 5 MB, which still decodes, and deck says so")
  func compressed() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let png = PhotoTestImages.png(width: 5000, height: 400)
    #expect(png.count > ProfilePhoto.maximumBytes)
    let path = try write(png, deck, "wide.png")
    let result = try photo(deck, ["set", path, "--json"])
    let set = try object(result)
    #expect(set["type"] as? String == "jpeg")
    let size = try #require(set["size"] as? Int)
    #expect(size <= ProfilePhoto.maximumBytes)
    #expect(set["width"] as? Int == 4096, "shrunk to 4096 pixels on its longest side")
    #expect(set["height"] as? Int == 328)
    let original = try #require(set["original"] as? [String: Any])
    #expect(original["size"] as? Int == png.count)
    #expect(original["width"] as? Int == 5000)
    let compression = try #require(set["compression"] as? [String: Any])
    #expect(compression["quality"] as? Int == 85)
    #expect(compression["maximumSide"] as? Int == 4096)
    #expect(compression["tries"] as? Int == 1)

    let out = deck.home + "/back.jpg"
    let got = try object(try photo(deck, ["get", "--output", out, "--json"]))
    let stored = try Data(contentsOf: URL(fileURLWithPath: out))
    #expect(stored.count == size)
    #expect(Array(stored.prefix(3)) == [0xFF, 0xD8, 0xFF])
    #expect(Array(stored.suffix(2)) == [0xFF, 0xD9])
    // deck decodes what it downloads (every pixel): the JPEG is a whole image of that size.
    #expect(got["type"] as? String == "jpeg")
    #expect(got["width"] as? Int == 4096)
    #expect(got["height"] as? Int == 328)

    let human = try photo(deck, ["set", path])
    #expect(human.stderr.contains("over the 5 MB limit: compressed it to a JPEG of 4096×328 at quality 85"))
  }

  @Test("a photo whose JPEG stays too big is tried at lower quality, then smaller, until it fits")
  func compressedInSteps() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    // Noise compresses badly: at 3400 pixels no quality of the plan fits, at 2550 quality 85 does.
    let path = try write(PhotoTestImages.png(width: 3400, height: 3400, noise: true), deck, "noise.png")
    let set = try object(try photo(deck, ["set", path, "--json"]))
    let compression = try #require(set["compression"] as? [String: Any])
    #expect(compression["tries"] as? Int == 3, "3400 at 85, 3400 at 70, then 2550 at 85")
    #expect(compression["maximumSide"] as? Int == 2550)
    #expect(compression["quality"] as? Int == 85)
    #expect(set["width"] as? Int == 2550)
    #expect(try #require(set["size"] as? Int) <= ProfilePhoto.maximumBytes)
  }

  @Test("WebP, HEIC, AVIF and JPEG photos are read whole by libvips and stored as they are")
  func formats() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    for (name, shown) in [("webp", "WebP"), ("heic", "HEIC"), ("avif", "AVIF"), ("jpeg", "JPEG")] {
      let image = PhotoTestImages.tiny(name)
      let path = try write(image, deck, "photo-\(name).png")
      let set = try photo(deck, ["set", path])
      #expect(set.stderr.contains("Saved the profile photo of athlete@sandbox.test: \(shown), 8×6"), "\(set.stderr)")
      let out = deck.home + "/back-\(name)"
      let got = try object(try photo(deck, ["get", "--output", out, "--json"]))
      #expect(got["type"] as? String == name)
      #expect(got["width"] as? Int == 8, "\(name) decodes")
      #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == image, "\(name) stored byte for byte")
    }
  }

  @Test("unknown, unsupported and corrupt files exit 64 and send nothing")
  func badInput() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let text = try write(Data("just some text\n".utf8), deck, "photo.png")
    let unknown = try photo(deck, ["set", text], status: 64)
    #expect(unknown.stderr.contains("is not an image deck knows"))
    let gif = try write(Data("GIF89a".utf8) + Data([1, 0, 1, 0, 0, 0, 0]), deck, "anim.gif")
    #expect(try photo(deck, ["set", gif], status: 64).stderr.contains("is a GIF image; the profile photo takes JPEG"))
    // A PNG cut in half: its signature is right, its pixels are not all there.
    let png = PhotoTestImages.png(width: 60, height: 60)
    let truncated = try write(png.prefix(png.count / 2), deck, "cut.png")
    let corrupt = try photo(deck, ["set", truncated], status: 64)
    #expect(corrupt.stderr.contains("looks like a PNG image but cannot be decoded"))
    #expect(try photo(deck, ["set", deck.home + "/missing.png"], status: 64).stderr.contains("Cannot read the photo"))
    let empty = try write(Data(), deck, "empty.png")
    #expect(try photo(deck, ["set", empty], status: 64).stderr.contains("is empty"))
    // Nothing was stored.
    let none = try photo(deck, ["get", "--output", deck.home + "/none.png"], status: 1)
    #expect(none.stderr.contains("No profile photo is set for athlete@sandbox.test"))
    #expect(!FileManager.default.fileExists(atPath: deck.home + "/none.png"))
  }

  @Test("a parent sees the athlete's photo but cannot set or remove it (77)")
  func parent() throws {
    let (server, athlete) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let png = PhotoTestImages.png(width: 12, height: 12)
    _ = try photo(athlete, ["set", try write(png, athlete, "me.png")])

    let parent = try DeckCLI(server: server)
    let login = try parent.run(
      ["auth", "login", "--email", "parent@sandbox.test", "--password-stdin"], stdin: "sandbox\n")
    #expect(login.status == 0, "\(login.stderr)")
    let other = try write(PhotoTestImages.png(width: 3, height: 3), parent, "other.png")
    let refused = try photo(parent, ["set", other], status: 77)
    #expect(refused.stderr.contains("read-only for parents"))
    #expect(try photo(parent, ["remove"], status: 77).stderr.contains("read-only for parents"))
    let out = parent.home + "/athlete.png"
    _ = try photo(parent, ["get", "--output", out])
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == png, "the athlete's photo, unchanged")
  }

  @Test("remove deletes the photo and says when there was none")
  func remove() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let nothing = try photo(deck, ["remove"])
    #expect(nothing.stderr.contains("There was no profile photo of athlete@sandbox.test to remove"))
    _ = try photo(deck, ["set", try write(PhotoTestImages.png(width: 4, height: 4), deck, "p.png")])
    let removed = try object(try photo(deck, ["remove", "--json"]))
    #expect(removed["removed"] as? Bool == true)
    _ = try photo(deck, ["get", "--output", deck.home + "/x.png"], status: 1)
    #expect(try deck.run(["prefs", "get", "player"]).stdout.contains("not set"))
  }

  @Test("get refuses to write an image to a terminal without --output, set to read one from it (64)")
  func terminal() throws {
    let (server, deck) = try DeckCLI.signedIn()
    defer { withExtendedLifetime(server) {} }
    let terminal = try PseudoTerminal(deck: deck, ["prefs", "photo", "get"])
    _ = try terminal.expect("deck does not write it to a terminal")
    #expect(try terminal.waitForExit() == 64)
    // Nor wait for an image typed on one.
    let typing = try PseudoTerminal(deck: deck, ["prefs", "photo", "set", "-"])
    _ = try typing.expect("stdin is a terminal, not an image")
    #expect(try typing.waitForExit() == 64)
  }
}
