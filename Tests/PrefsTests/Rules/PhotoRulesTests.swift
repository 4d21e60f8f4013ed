import Foundation
import PrefsRules
import Testing

/// The profile photo's rules: types told from the bytes, and the plan that makes a photo over
/// 5 MB fit (preferences.md §2A).
@Suite("Profile photo rules")
struct PhotoRulesTests {
  @Test("each accepted format is told by its magic number, whatever the file is called")
  func magicNumbers() {
    #expect(PhotoType.detect(PhotoTestImages.png(width: 2, height: 2)) == .png)
    #expect(PhotoType.detect([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] as [UInt8]) == .jpeg)
    #expect(PhotoType.detect(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)) == .webp)
    #expect(PhotoType.detect(PhotoTestImages.ftyp(major: "heic", compatible: ["mif1", "heic"])) == .heic)
    #expect(PhotoType.detect(PhotoTestImages.ftyp(major: "avif", compatible: ["mif1", "avif"])) == .avif)
    // A generic HEIF brand first: the compatible brands say what codes the image.
    #expect(PhotoType.detect(PhotoTestImages.ftyp(major: "mif1", compatible: ["heic"])) == .heic)
    #expect(PhotoType.detect(PhotoTestImages.ftyp(major: "mif1", compatible: ["avif", "miaf"])) == .avif)
    #expect(PhotoType.detect(PhotoTestImages.ftyp(major: "mif1", compatible: [])) == .heic)
    for type in [PhotoType.jpeg, .png, .webp, .heic, .avif] { #expect(type.isAccepted, "\(type)") }
  }

  @Test("real files of each format, as libvips wrote them, are told apart")
  func realFiles() {
    #expect(PhotoType.detect(PhotoTestImages.tiny("webp")) == .webp)
    #expect(PhotoType.detect(PhotoTestImages.tiny("heic")) == .heic)
    #expect(PhotoType.detect(PhotoTestImages.tiny("avif")) == .avif)
    #expect(PhotoType.detect(PhotoTestImages.tiny("jpeg")) == .jpeg)
  }

  @Test("other images are recognised but not accepted; anything else is no image")
  func refused() {
    #expect(PhotoType.detect(Array("GIF89a".utf8) + [1, 0, 1, 0]) == .gif)
    #expect(PhotoType.detect([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0] as [UInt8]) == .tiff)
    for type in [PhotoType.gif, .tiff, .bmp] { #expect(!type.isAccepted, "\(type)") }
    // An MP4 is an ISO media file too, but no image.
    #expect(PhotoType.detect(PhotoTestImages.ftyp(major: "isom", compatible: ["mp41"])) == nil)
    #expect(PhotoType.detect(Array("not an image at all".utf8)) == nil)
    #expect(PhotoType.detect([] as [UInt8]) == nil)
    #expect(PhotoType.detect([0xFF, 0xD8] as [UInt8]) == nil, "too short to be a JPEG")
    #expect(PhotoType.detect(Array("RIFF\0\0\0\0WAVE".utf8)) == nil, "a RIFF that is no WebP")
    // A PNG's signature after other bytes is not a PNG.
    #expect(PhotoType.detect([0] + [UInt8](PhotoTestImages.png(width: 1, height: 1))) == nil)
  }

  @Test("content types map both ways, parameters and case ignored")
  func mimeTypes() {
    for type in PhotoType.allCases { #expect(PhotoType(mimeType: type.mimeType) == type) }
    #expect(PhotoType(mimeType: "Image/PNG; charset=binary") == .png)
    #expect(PhotoType(mimeType: "application/octet-stream") == nil)
  }

  @Test("the plan starts at the photo's own size (at most 4096) and best quality, and only ever loses more")
  func planForALargePhoto() {
    let steps = CompressionPlan.steps(width: 6000, height: 4000)
    #expect(steps.first == CompressionStep(maximumSide: 4096, quality: 85))
    #expect(steps[1] == CompressionStep(maximumSide: 4096, quality: 70))
    #expect(steps[2] == CompressionStep(maximumSide: 3072, quality: 85), "a quarter smaller")
    #expect(steps.last == CompressionStep(maximumSide: 512, quality: 70))
    let sides = steps.map(\.maximumSide)
    #expect(zip(sides, sides.dropFirst()).allSatisfy { $0 >= $1 })
    #expect(Set(steps.map(\.quality)) == [85, 70])
    #expect(steps.count == Set(steps.map { "\($0.maximumSide)/\($0.quality)" }).count, "no step twice")
  }

  @Test("a photo smaller than 4096 pixels is first re-encoded at its own size, never enlarged")
  func planForASmallPhoto() {
    let steps = CompressionPlan.steps(width: 1000, height: 1400)
    #expect(steps.first == CompressionStep(maximumSide: 1400, quality: 85))
    #expect(steps.map(\.maximumSide).allSatisfy { $0 <= 1400 })
    #expect(steps.map(\.maximumSide) == [1400, 1400, 1050, 1050, 787, 787, 590, 590, 512, 512])
    // Already at or under the smallest size: one size, both qualities.
    #expect(
      CompressionPlan.steps(width: 300, height: 200) == [
        CompressionStep(maximumSide: 300, quality: 85), CompressionStep(maximumSide: 300, quality: 70),
      ])
    #expect(CompressionPlan.steps(width: 0, height: 0).first?.maximumSide == 1, "no division by zero, no empty plan")
  }

  @Test("the limit is 5 MB in bytes, and sizes read as people say them")
  func sizes() {
    #expect(ProfilePhoto.maximumBytes == 5_242_880)
    #expect(ProfilePhoto.sizeText(ProfilePhoto.maximumBytes) == "5 MB")
    #expect(ProfilePhoto.sizeText(512) == "512 bytes")
    #expect(ProfilePhoto.sizeText(3698) == "3.6 KB")
    #expect(ProfilePhoto.sizeText(6_000_923) == "5.7 MB")
  }
}
