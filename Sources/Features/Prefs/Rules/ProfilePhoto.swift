/// The profile photo of the player details (preferences.md §2A, form section 1: "5MB max,
/// auto-compress"): which images it takes, told by their bytes, and how one over the limit is
/// made to fit.
public enum ProfilePhoto {
  /// The largest photo stored: 5 MB (5 × 1024 × 1024 bytes). The storage bucket refuses a
  /// bigger upload (413); deck compresses a bigger file before sending it.
  public static let maximumBytes = 5 * 1024 * 1024

  /// The storage bucket of the recruiting app's profile photos.
  public static let bucket = "profile-photos"
  /// The object's name inside its owner's folder: `profile-photos/<user id>/avatar`.
  public static let objectName = "avatar"

  /// `5 MB` style sizes for people: bytes under 1 KB, then KB and MB with one decimal.
  public static func sizeText(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) bytes" }
    if bytes < 1024 * 1024 { return formatted(Double(bytes) / 1024) + " KB" }
    return formatted(Double(bytes) / (1024 * 1024)) + " MB"
  }

  private static func formatted(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
  }
}

/// An image format, as its first bytes (its magic number) say, never its file name.
public enum PhotoType: String, Sendable, Codable, CaseIterable {
  case jpeg, png, webp, heic, avif, gif, tiff, bmp

  /// The formats a profile photo may have (when the image library reads them).
  public static let accepted: [PhotoType] = [.jpeg, .png, .webp, .heic, .avif]

  public var isAccepted: Bool { Self.accepted.contains(self) }

  public var mimeType: String {
    switch self {
    case .jpeg: "image/jpeg"
    case .png: "image/png"
    case .webp: "image/webp"
    case .heic: "image/heic"
    case .avif: "image/avif"
    case .gif: "image/gif"
    case .tiff: "image/tiff"
    case .bmp: "image/bmp"
    }
  }

  public init?(mimeType: String) {
    let bare = mimeType.split(separator: ";").first.map { String($0).trimmingASCIISpaces().lowercased() } ?? ""
    guard let type = Self.allCases.first(where: { $0.mimeType == bare }) else { return nil }
    self = type
  }

  /// The name people know it by.
  public var displayName: String {
    switch self {
    case .jpeg: "JPEG"
    case .png: "PNG"
    case .webp: "WebP"
    case .heic: "HEIC"
    case .avif: "AVIF"
    case .gif: "GIF"
    case .tiff: "TIFF"
    case .bmp: "BMP"
    }
  }

  /// HEIF brands (ISO/IEC 23008-12, `ftyp`) of HEVC-coded images and AV1-coded ones (AVIF).
  static let heicBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]
  static let avifBrands: Set<String> = ["avif", "avis"]
  /// Generic HEIF brands: the compatible brands say what codes the image.
  static let heifBrands: Set<String> = ["mif1", "msf1", "mif2"]

  /// The format of an image from its first bytes; nil when they are no image format deck knows.
  public static func detect(_ bytes: some Collection<UInt8>) -> PhotoType? {
    let head = Array(bytes.prefix(64))
    func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
      head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
    }
    if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
    if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
    if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
    if starts(Array("BM".utf8)) && head.count >= 26 { return .bmp }
    if starts(Array("ftyp".utf8), at: 4) { return isoBrand(head) }
    return nil
  }

  /// An ISO base media file (`size ftyp major minor compatible…`): HEIC or AVIF by its brands.
  private static func isoBrand(_ head: [UInt8]) -> PhotoType? {
    guard head.count >= 12 else { return nil }
    let declared = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
    let end = min(max(declared, 16), head.count)
    var brands = [brand(head, 8)]
    var offset = 16
    while offset + 4 <= end {
      brands.append(brand(head, offset))
      offset += 4
    }
    if brands.contains(where: avifBrands.contains) && !brands.contains(where: heicBrands.contains) { return .avif }
    if brands.contains(where: heicBrands.contains) { return .heic }
    if brands.contains(where: avifBrands.contains) { return .avif }
    if brands.contains(where: heifBrands.contains) { return .heic }
    return nil
  }

  private static func brand(_ head: [UInt8], _ offset: Int) -> String {
    String(decoding: head[offset..<min(offset + 4, head.count)], as: UTF8.self)
  }
}

/// One try at making a photo fit: shrink it into a `maximumSide` × `maximumSide` box (never
/// enlarging it) and encode it as a JPEG of `quality`.
public struct CompressionStep: Sendable, Equatable, Codable {
  public var maximumSide: Int
  public var quality: Int

  public init(maximumSide: Int, quality: Int) {
    self.maximumSide = maximumSide
    self.quality = quality
  }
}

/// How a photo over the limit is made to fit, as the app does (downscale, re-encode as JPEG),
/// in the order tried: the first step whose result fits is the one kept, so the photo loses no
/// more than it must. The largest side starts at the photo's own (at most 4096 pixels, more
/// than any phone screen shows) and shrinks by a quarter at each size, down to 512; at each
/// size quality 85 is tried, then 70.
public enum CompressionPlan {
  public static let largestSide = 4096
  public static let smallestSide = 512
  public static let qualities = [85, 70]

  public static func steps(width: Int, height: Int) -> [CompressionStep] {
    let longest = max(1, width, height)
    var side = min(longest, largestSide)
    var sides: [Int] = []
    while true {
      sides.append(side)
      if side <= smallestSide { break }
      side = max(smallestSide, side * 3 / 4)
    }
    return sides.flatMap { side in qualities.map { CompressionStep(maximumSide: side, quality: $0) } }
  }
}

extension String {
  fileprivate func trimmingASCIISpaces() -> String {
    String(String(drop { $0 == " " || $0 == "\t" }.reversed()).drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
