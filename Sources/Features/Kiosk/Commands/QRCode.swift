import CQRencode
import DeckSupport
import Foundation

/// A QR code symbol from libqrencode (`QRcode_encodeString`), drawn in the terminal with
/// Unicode half blocks (two modules per character cell) or written as a PNG.
struct QRCode: Sendable, Equatable {
  /// Modules per side, without the quiet zone.
  let size: Int
  /// Row-major, true for a dark module.
  let modules: [Bool]

  /// Encodes `text` (8-bit mode, error correction level M, smallest version that fits).
  init(_ text: String) throws {
    guard let symbol = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
      throw DeckError.failure("Cannot encode \(text) as a QR code: \(String(cString: strerror(errno))).")
    }
    defer { QRcode_free(symbol) }
    let width = Int(symbol.pointee.width)
    size = width
    // libqrencode: bit 0 of each byte is the module's colour (1 = dark).
    modules = (0..<(width * width)).map { symbol.pointee.data[$0] & 1 == 1 }
  }

  func isDark(_ x: Int, _ y: Int) -> Bool {
    guard x >= 0, y >= 0, x < size, y < size else { return false }
    return modules[y * size + x]
  }

  /// The symbol with a quiet zone, two module rows per line. With `color`, dark modules are
  /// drawn black on a white background (right on any terminal); without, light modules are
  /// drawn as blocks, which reads right on the usual light-on-dark terminal.
  func halfBlockLines(quietZone: Int = 2, color: Bool) -> [String] {
    let range = -quietZone..<(size + quietZone)
    var lines: [String] = []
    var y = -quietZone
    while y < size + quietZone {
      var line = color ? "\u{1B}[30;107m" : ""
      for x in range {
        var top = isDark(x, y)
        var bottom = y + 1 < size + quietZone ? isDark(x, y + 1) : !color
        if !color {
          top.toggle()
          bottom.toggle()
        }
        switch (top, bottom) {
        case (true, true): line += "█"
        case (true, false): line += "▀"
        case (false, true): line += "▄"
        case (false, false): line += " "
        }
      }
      if color { line += "\u{1B}[0m" }
      lines.append(line)
      y += 2
    }
    return lines
  }

  /// Columns and rows the half-block drawing takes.
  func halfBlockSize(quietZone: Int = 2) -> (columns: Int, rows: Int) {
    let side = size + 2 * quietZone
    return (side, (side + 1) / 2)
  }

  /// Writes the PNG atomically; a relative path is taken from the current directory.
  func writePNG(to path: String) throws {
    try AtomicFile.write(png(), to: URL(fileURLWithPath: path).standardizedFileURL.path)
  }

  /// A greyscale PNG: `scale` pixels per module and a 4-module quiet zone.
  func png(scale: Int = 8, quietZone: Int = 4) -> Data {
    let side = (size + 2 * quietZone) * scale
    var pixels = [UInt8]()
    pixels.reserveCapacity((side + 1) * side)
    for row in 0..<side {
      pixels.append(0)  // filter type: none
      let y = row / scale - quietZone
      for column in 0..<side {
        pixels.append(isDark(column / scale - quietZone, y) ? 0x00 : 0xFF)
      }
    }
    return PNG.greyscale(width: side, height: side, rows: pixels)
  }
}

/// A minimal PNG writer: 8-bit greyscale, zlib with stored (uncompressed) blocks, CRC-32 and
/// Adler-32 computed here. Enough for a QR code that zbarimg and phones can read.
enum PNG {
  static func greyscale(width: Int, height: Int, rows: [UInt8]) -> Data {
    var header = Data()
    header.append(bigEndian: UInt32(width))
    header.append(bigEndian: UInt32(height))
    header.append(contentsOf: [8, 0, 0, 0, 0])  // bit depth 8, greyscale, deflate, no filter, no interlace
    var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    png.append(chunk("IHDR", header))
    png.append(chunk("IDAT", zlibStored(rows)))
    png.append(chunk("IEND", Data()))
    return png
  }

  static func chunk(_ type: String, _ data: Data) -> Data {
    var chunk = Data()
    chunk.append(bigEndian: UInt32(data.count))
    let typeAndData = Data(type.utf8) + data
    chunk.append(typeAndData)
    chunk.append(bigEndian: crc32(typeAndData))
    return chunk
  }

  /// A zlib stream of stored deflate blocks (at most 65535 bytes each).
  static func zlibStored(_ bytes: [UInt8]) -> Data {
    var out = Data([0x78, 0x01])
    var offset = 0
    repeat {
      let count = min(65_535, bytes.count - offset)
      let final: UInt8 = offset + count >= bytes.count ? 1 : 0
      out.append(final)
      out.append(littleEndian: UInt16(count))
      out.append(littleEndian: ~UInt16(count))
      out.append(contentsOf: bytes[offset..<(offset + count)])
      offset += count
    } while offset < bytes.count
    out.append(bigEndian: adler32(bytes))
    return out
  }

  static let crcTable: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  static func crc32(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }

  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return b << 16 | a
  }
}

extension Data {
  fileprivate mutating func append(bigEndian value: UInt32) {
    append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
  }

  fileprivate mutating func append(littleEndian value: UInt16) {
    append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)])
  }
}
