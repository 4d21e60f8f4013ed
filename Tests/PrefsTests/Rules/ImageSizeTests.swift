import Foundation
import PrefsRules
import Testing

/// Issue 44, finding 8: the size an image's header declares, read without decoding it.
@Suite struct ImageSizeTests {
  @Test func readsTheSizeOfEveryAcceptedFormat() throws {
    #expect(
      ImageSize.declared(by: PhotoTestImages.png(width: 40, height: 30), type: .png) == .init(width: 40, height: 30))
    // Real 8 × 6 images made by libvips: lossy WebP, baseline JPEG, AVIF.
    for (name, type) in [("jpeg", PhotoType.jpeg), ("webp", .webp), ("avif", .avif)] {
      let data = PhotoTestImages.tiny(name)
      #expect(!data.isEmpty)
      #expect(ImageSize.declared(by: data, type: type) == .init(width: 8, height: 6), "\(name)")
    }
    // The HEIC is an 8 × 6 grid of one 64 × 64 HEVC tile: the largest item, which a decoder
    // allocates, is what counts.
    #expect(ImageSize.declared(by: PhotoTestImages.tiny("heic"), type: .heic) == .init(width: 64, height: 64))
  }

  @Test func aBombDeclaresItsSizeInAFewBytes() {
    let bomb = PhotoTestImages.bomb(width: 50_000, height: 50_000)
    #expect(bomb.count < 1_000)
    let size = ImageSize.declared(by: bomb, type: .png)
    #expect(size == .init(width: 50_000, height: 50_000))
    #expect((size?.pixels ?? 0) > ProfilePhoto.maximumPixels)
    #expect(size?.megapixelsText == "2500.0")
    #expect(ImageSize(width: 8_000, height: 5_000).pixels == ProfilePhoto.maximumPixels)
  }

  @Test func cutOrMalformedHeadersSayNothing() {
    let png = PhotoTestImages.png(width: 4, height: 4)
    #expect(ImageSize.declared(by: png.prefix(20), type: .png) == nil)
    #expect(ImageSize.declared(by: [0xFF, 0xD8, 0xFF, 0xDA, 0, 2], type: .jpeg) == nil)
    #expect(ImageSize.declared(by: PhotoTestImages.tiny("jpeg").prefix(40), type: .jpeg) == nil)
    #expect(ImageSize.declared(by: PhotoTestImages.ftyp(major: "heic", compatible: ["mif1"]), type: .heic) == nil)
    #expect(ImageSize.declared(by: Array("RIFF\0\0\0\0WEBPVP8 ".utf8), type: .webp) == nil)
    // A box that claims to run past the end is not followed.
    let lying: [UInt8] = [0xFF, 0xFF, 0xFF, 0xF0] + Array("meta".utf8) + [0, 0, 0, 0]
    #expect(ImageSize.declared(by: lying, type: .avif) == nil)
  }
}

extension PhotoTestImages {
  /// A decompression bomb's header: a PNG that declares `width` × `height` RGB pixels in a few
  /// hundred bytes (one row of zeros follows; a decoder would expand the rest).
  static func bomb(width: Int, height: Int) -> Data {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
    // zlib, one stored block holding a filter byte and eight zero bytes.
    let row: [UInt8] = [0x78, 0x01, 0x01, 9, 0, 0xF6, 0xFF] + [UInt8](repeating: 0, count: 9) + [0, 0x09, 0, 0x01]
    return Data(signature + chunk("IHDR", header) + chunk("IDAT", row) + chunk("IEND", []))
  }

  private static func bigEndian(_ value: Int) -> [UInt8] {
    [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in typed {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return bigEndian(data.count) + typed + bigEndian(Int(crc ^ 0xFFFF_FFFF))
  }
}
