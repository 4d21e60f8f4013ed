import CQRencode
import CZlib
import DeckSupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A QR code symbol from libqrencode (`QRcode_encodeString`), drawn in the terminal with
/// Unicode half blocks (two modules per character cell) or written as a PNG.
struct QRCode: Sendable, Equatable {
  /// Modules per side, without the quiet zone.
  let size: Int
  /// Row-major, true for a dark module.
  let modules: [Bool]

  /// Encodes `text` in 8-bit mode in the smallest version that holds it (the fewest modules, so
  /// the code fits a standard terminal), at the highest error correction level that still fits
  /// that version: H, Q, M, or L when nothing stronger does.
  init(_ text: String) throws {
    guard let smallest = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1) else {
      throw DeckError.failure("Cannot encode \(text) as a QR code: \(String(cString: strerror(errno))).")
    }
    var symbol = smallest
    let version = smallest.pointee.version
    for level in [QR_ECLEVEL_H, QR_ECLEVEL_Q, QR_ECLEVEL_M] {
      guard let stronger = QRcode_encodeString(text, version, level, QR_MODE_8, 1) else { continue }
      if stronger.pointee.version == version {
        QRcode_free(smallest)
        symbol = stronger
        break
      }
      QRcode_free(stronger)
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
    try AtomicFile.write(try png(), to: URL(fileURLWithPath: path).standardizedFileURL.path)
  }

  /// A greyscale PNG: `scale` pixels per module and a 4-module quiet zone.
  func png(scale: Int = 8, quietZone: Int = 4) throws -> Data {
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
    return try PNG.greyscale(width: side, height: side, rows: pixels)
  }
}

/// A PNG writer for 8-bit greyscale images: the image data is deflated and the chunks are
/// checksummed by zlib (`compress2`, `crc32`). Enough for a QR code that zbarimg and phones
/// can read.
enum PNG {
  static func greyscale(width: Int, height: Int, rows: [UInt8]) throws -> Data {
    var header = Data()
    header.append(bigEndian: UInt32(clamping: width))
    header.append(bigEndian: UInt32(clamping: height))
    header.append(contentsOf: [8, 0, 0, 0, 0])  // bit depth 8, greyscale, deflate, no filter, no interlace
    var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    png.append(chunk("IHDR", header))
    png.append(chunk("IDAT", try deflate(rows)))
    png.append(chunk("IEND", Data()))
    return png
  }

  static func chunk(_ type: String, _ data: Data) -> Data {
    var chunk = Data()
    chunk.append(bigEndian: UInt32(clamping: data.count))
    let typeAndData = Data(type.utf8) + data
    chunk.append(typeAndData)
    let crc = typeAndData.withUnsafeBytes { bytes in
      CZlib.crc32(0, bytes.bindMemory(to: Bytef.self).baseAddress, uInt(bytes.count))
    }
    chunk.append(bigEndian: UInt32(truncatingIfNeeded: crc))
    return chunk
  }

  /// A zlib stream (what PNG's IDAT holds), at the best compression.
  static func deflate(_ bytes: [UInt8]) throws -> Data {
    var capacity = compressBound(uLong(bytes.count))
    var out = [UInt8](repeating: 0, count: Int(capacity))
    let status = compress2(&out, &capacity, bytes, uLong(bytes.count), Z_BEST_COMPRESSION)
    guard status == Z_OK else {
      throw DeckError.failure("Cannot compress the QR code image (zlib error \(status)).")
    }
    return Data(out.prefix(Int(capacity)))
  }
}

extension Data {
  fileprivate mutating func append(bigEndian value: UInt32) {
    append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
  }
}
