/// An image's size as its header declares it, read without decoding anything: a 300 KB PNG can
/// declare 50000 × 50000 pixels, which would take gigabytes to decode. The profile photo takes
/// at most ``ProfilePhoto/maximumPixels``; deck and the sandbox check the header against it
/// before any pixel is read.
public struct ImageSize: Sendable, Equatable {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// Width × height.
  public var pixels: Int { width.multipliedReportingOverflow(by: height).overflow ? .max : width * height }

  /// Megapixels with one decimal, for messages (`2500.0`).
  public var megapixelsText: String {
    let tenths = pixels / 100_000
    return "\(tenths / 10).\(tenths % 10)"
  }

  /// The size the header of `bytes`, an image of `type`, declares; nil when the header is cut
  /// short or malformed. HEIC and AVIF: the largest `ispe` (image spatial extents) property.
  public static func declared(by bytes: some Collection<UInt8>, type: PhotoType) -> ImageSize? {
    let reader = ByteReader(Array(bytes.prefix(headerBytes)))
    switch type {
    case .png: return png(reader)
    case .jpeg: return jpeg(reader)
    case .webp: return webp(reader)
    case .heic, .avif: return isoImage(reader)
    case .gif, .tiff, .bmp: return nil
    }
  }

  /// How far into a file the header is looked for (a JPEG's EXIF block and an ISO image's
  /// `meta` box come before the pixels, and are far smaller; the bucket takes 5 MB).
  static let headerBytes = 8 << 20

  /// `IHDR`, the first chunk: width and height, big-endian.
  private static func png(_ reader: ByteReader) -> ImageSize? {
    guard reader.ascii(12, 4) == "IHDR", let width = reader.uint32(16), let height = reader.uint32(20) else {
      return nil
    }
    return ImageSize(width: width, height: height)
  }

  /// The first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC): height, then width.
  private static func jpeg(_ reader: ByteReader) -> ImageSize? {
    var offset = 2
    while let byte = reader.byte(offset) {
      guard byte == 0xFF else { return nil }
      // Fill bytes: any number of 0xFF before a marker.
      var markerOffset = offset + 1
      while reader.byte(markerOffset) == 0xFF { markerOffset += 1 }
      guard let marker = reader.byte(markerOffset) else { return nil }
      offset = markerOffset + 1
      if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length
      if marker == 0xD9 || marker == 0xDA { return nil }  // the end, or the scan, before any frame
      guard let length = reader.uint16(offset), length >= 2 else { return nil }
      if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
        guard let height = reader.uint16(offset + 3), let width = reader.uint16(offset + 5) else { return nil }
        return ImageSize(width: width, height: height)
      }
      offset += length
    }
    return nil
  }

  /// The first chunk after `RIFF….WEBP`: `VP8 ` (lossy), `VP8L` (lossless) or `VP8X` (extended,
  /// the canvas).
  private static func webp(_ reader: ByteReader) -> ImageSize? {
    switch reader.ascii(12, 4) {
    case "VP8 ":
      guard reader.byte(23) == 0x9D, reader.byte(24) == 0x01, reader.byte(25) == 0x2A,
        let width = reader.uint16LE(26), let height = reader.uint16LE(28)
      else { return nil }
      return ImageSize(width: width & 0x3FFF, height: height & 0x3FFF)
    case "VP8L":
      guard reader.byte(20) == 0x2F, let bits = reader.uint32LE(21) else { return nil }
      return ImageSize(width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
    case "VP8X":
      guard let width = reader.uint24LE(24), let height = reader.uint24LE(27) else { return nil }
      return ImageSize(width: width + 1, height: height + 1)
    default:
      return nil
    }
  }

  /// HEIF (HEIC, AVIF): `meta` → `iprp` → `ipco` → each `ispe` (a full box: version and
  /// flags, then width and height, big-endian); the largest, which a grid image's canvas is.
  private static func isoImage(_ reader: ByteReader) -> ImageSize? {
    guard let meta = reader.boxes(in: 0..<reader.count).first(where: { $0.type == "meta" }),
      meta.content.count >= 4,
      let iprp = reader.boxes(in: meta.content.lowerBound + 4..<meta.content.upperBound).first(where: {
        $0.type == "iprp"
      }),
      let ipco = reader.boxes(in: iprp.content).first(where: { $0.type == "ipco" })
    else { return nil }
    let sizes = reader.boxes(in: ipco.content).filter { $0.type == "ispe" && $0.content.count >= 12 }.compactMap {
      box -> ImageSize? in
      let start = box.content.lowerBound
      guard let width = reader.uint32(start + 4), let height = reader.uint32(start + 8) else { return nil }
      return ImageSize(width: width, height: height)
    }
    return sizes.max { $0.pixels < $1.pixels }
  }
}

extension ProfilePhoto {
  /// The most pixels a profile photo may have: 40 megapixels (a phone's camera takes 12 to 50;
  /// a 4096-pixel square is 16.8). Checked against the header before anything is decoded.
  public static let maximumPixels = 40_000_000
}

/// Bounds-checked big- and little-endian reads of a header.
private struct ByteReader {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var count: Int { bytes.count }

  func byte(_ offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }

  func value(_ offset: Int, _ length: Int, bigEndian: Bool) -> Int? {
    guard offset >= 0, length > 0, offset <= bytes.count - length else { return nil }
    let slice = bytes[offset..<offset + length]
    let ordered = bigEndian ? Array(slice) : slice.reversed()
    return ordered.reduce(0) { $0 << 8 | Int($1) }
  }

  func uint16(_ offset: Int) -> Int? { value(offset, 2, bigEndian: true) }
  func uint32(_ offset: Int) -> Int? { value(offset, 4, bigEndian: true) }
  func uint16LE(_ offset: Int) -> Int? { value(offset, 2, bigEndian: false) }
  func uint24LE(_ offset: Int) -> Int? { value(offset, 3, bigEndian: false) }
  func uint32LE(_ offset: Int) -> Int? { value(offset, 4, bigEndian: false) }

  func ascii(_ offset: Int, _ length: Int) -> String? {
    guard offset >= 0, offset <= bytes.count - length else { return nil }
    return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
  }

  struct Box {
    var type: String
    var content: Range<Int>
  }

  /// The ISO base media boxes laid end to end in `range` (size, type, and a 64-bit size when
  /// the size is 1; 0 runs to the end). Stops at the first box that does not fit.
  func boxes(in range: Range<Int>) -> [Box] {
    var boxes: [Box] = []
    var offset = range.lowerBound
    while offset + 8 <= range.upperBound, let size = uint32(offset), let type = ascii(offset + 4, 4) {
      var header = 8
      var length = size
      if size == 1 {
        guard let large = value(offset + 8, 8, bigEndian: true) else { break }
        header = 16
        length = large
      } else if size == 0 {
        length = range.upperBound - offset
      }
      guard length >= header, length <= range.upperBound - offset else { break }
      boxes.append(Box(type: type, content: offset + header..<offset + length))
      offset += length
    }
    return boxes
  }
}
