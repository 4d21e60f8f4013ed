import Foundation

/// Images the photo tests make as they run (no binaries in the repository): PNGs written here
/// byte by byte (zlib's stored blocks: no compression, so the file size is about width × height
/// × 3), and the first bytes of the other formats.
enum PhotoTestImages {
  /// An RGB PNG of `width` × `height`: a smooth gradient with some deterministic noise, so that a
  /// JPEG of it is neither trivial nor enormous. `alpha` adds a half-transparent alpha channel.
  /// `noise`: every byte random instead (a JPEG of it stays large, so compressing needs tries).
  static func png(width: Int, height: Int, seed: UInt32 = 1, alpha: Bool = false, noise: Bool = false) -> Data {
    let channels = alpha ? 4 : 3
    var state = seed
    var raw = [UInt8]()
    raw.reserveCapacity(height * (width * channels + 1))
    for y in 0..<height {
      raw.append(0)  // filter: none
      for x in 0..<width {
        state = state &* 1_664_525 &+ 1_013_904_223
        if noise {
          raw += [
            UInt8(truncatingIfNeeded: state >> 24), UInt8(truncatingIfNeeded: state >> 16),
            UInt8(truncatingIfNeeded: state >> 8),
          ]
        } else {
          let jitter = Int(state >> 27)  // 0...31
          raw.append(UInt8(truncatingIfNeeded: (x * 255 / max(width, 1)) + jitter))
          raw.append(UInt8(truncatingIfNeeded: (y * 255 / max(height, 1)) + jitter))
          raw.append(UInt8(truncatingIfNeeded: ((x + y) * 127 / max(width + height, 1)) + jitter))
        }
        if alpha { raw.append(128) }
      }
    }
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
    header += [8, alpha ? 6 : 2, 0, 0, 0]
    png += chunk("IHDR", header)
    png += chunk("IDAT", zlibStored(raw))
    png += chunk("IEND", [])
    return Data(png)
  }

  /// The first bytes of an ISO base media file with these brands (HEIC, AVIF).
  static func ftyp(major: String, compatible: [String]) -> [UInt8] {
    let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
    return bigEndian(UInt32(8 + body.count)) + Array("ftyp".utf8) + body + [0, 0, 0, 8] + Array("meta".utf8)
  }

  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
  }

  private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, data.count - offset)
      let final: UInt8 = offset + count >= data.count ? 1 : 0
      out.append(final)
      out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      out += data[offset..<offset + count]
      offset += count
    } while offset < data.count
    return out + bigEndian(adler32(data))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }

  private static let crcTable: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  private static func crc32(_ data: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }

  private static func adler32(_ data: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for chunk in stride(from: 0, to: data.count, by: 5552) {
      for byte in data[chunk..<min(chunk + 5552, data.count)] {
        a += UInt32(byte)
        b += a
      }
      a %= 65_521
      b %= 65_521
    }
    return b << 16 | a
  }
}

extension PhotoTestImages {
  /// Real 8 × 6 images of the other accepted formats, a few hundred bytes each (base64), made
  /// with libvips 8.14 on Debian 12 (vips_xyz, cast to 8 bits, three bands; heifsave with HEVC
  /// and with AV1, webpsave, jpegsave, all at quality 30): deck cannot write these itself, and
  /// the test target links no image library.
  static let tiny: [String: String] = [
    "webp": [
      "UklGRh4BAABXRUJQVlA4WAoAAAAYAAAABwAABQAAQUxQSB0AAAABLzABERE+DLKNdAqncAqv8ArzdxlFRP8z1nm+AABWUDggGAAA",
      "ADABAJ0BKggABgAEAGglpAADcAD+8uMAAEVYSUa6AAAARXhpZgAASUkqAAgAAAAGABIBAwABAAAAAQAAABoBBQABAAAAVgAAABsB",
      "BQABAAAAXgAAACgBAwABAAAAAgAAABMCAwABAAAAAQAAAGmHBAABAAAAZgAAAAAAAAA4YwAA6AMAADhjAADoAwAABgAAkAcABAAA",
      "ADAyMTABkQcABAAAAAECAwAAoAcABAAAADAxMDABoAMAAQAAAP//AAACoAQAAQAAAAgAAAADoAQAAQAAAAYAAAAAAAAA",
    ].joined(),
    "heic": [
      "AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAzNtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAA",
      "AA5waXRtAAAAAAACAAAAGGlkYXQAAAAAAAgABgAAAAAACAAGAAAAdGlsb2MBAAAAREAABQABAAAAAAAAA1cAAQAAAAAAAAAqAAIA",
      "AQAAAAAAAAABAAAAAAAAAAgAAwAAAAAAAAOBAAEAAAAAAAAAJwAEAAEAAAAAAAAAAQAAAAgAAAAIAAUAAAAAAAADqAABAAAAAAAA",
      "AL4AAAB3aWluZgAAAAAABQAAABVpbmZlAgAAAQABAABodmMxAAAAABVpbmZlAgAAAAACAABncmlkAAAAABVpbmZlAgAAAQADAABo",
      "dmMxAAAAABVpbmZlAgAAAAAEAABncmlkAAAAABVpbmZlAgAAAQAFAABFeGlmAAAAAbFpcHJwAAABhGlwY28AAAB2aHZjQwEDcAAA",
      "AAAAAAAAAB7wAPz9+PgAAA8DIAABABhAAQwB//8DcAAAAwCQAAADAAADAB66AkAhAAEAKkIBAQNwAAADAJAAAAMAAAMAHqAggQWW",
      "6q6a5uBAQMCAAAADAIAAAAMAhCIAAQAGRAHBc8GJAAAAFGlzcGUAAAAAAAAAQAAAAEAAAAAUaXNwZQAAAAAAAAAIAAAABgAAABBw",
      "aXhpAAAAAAMICAgAAABxaHZjQwEECAAAAAAAAAAAAB7wAPz8+PgAAA8DIAABABdAAQwB//8ECAAAAwCf+AAAAwAAHroCQCEAAQAm",
      "QgEBBAgAAAMAn/gAAAMAAB7AggQWW6q6a5sCAAADAAIAAAMAAhAiAAEABkQBwXPBiQAAABRpc3BlAAAAAAAAAEAAAABAAAAAFGlz",
      "cGUAAAAAAAAACAAAAAYAAAAOcGl4aQAAAAABCAAAACdhdXhDAAAAAHVybjptcGVnOmhldmM6MjAxNTphdXhpZDoxAAAAACVpcG1h",
      "AAAAAAAAAAQAAQKBAgACAgOEAAMChQYABAMHiIkAAABEaXJlZgAAAAAAAAAOZGltZwACAAEAAQAAAA5kaW1nAAQAAQADAAAADmF1",
      "eGwABAABAAIAAAAOY2RzYwAFAAEAAgAAARdtZGF0AAAAJigBrxkhLlLuIaT/+U4O8H4S90DFF6MWnPmKeylAtq34S9C03/XvAAAA",
      "IygBrjJCYxzK72D/bFX10PXTBrfQs7173W0WVJ+T3tiTeJ7gAAAABkV4aWYAAElJKgAIAAAABgASAQMAAQAAAAEAAAAaAQUAAQAA",
      "AFYAAAAbAQUAAQAAAF4AAAAoAQMAAQAAAAIAAAATAgMAAQAAAAEAAABphwQAAQAAAGYAAAAAAAAAOGMAAOgDAAA4YwAA6AMAAAYA",
      "AJAHAAQAAAAwMjEwAZEHAAQAAAABAgMAAKAHAAQAAAAwMTAwAaADAAEAAAD//wAAAqAEAAEAAAAIAAAAA6AEAAEAAAAGAAAAAAAA",
      "AA==",
    ].joined(),
    "avif": [
      "AAAAHGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZgAAAc1tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAA",
      "AA5waXRtAAAAAAABAAAARmlsb2MAAAAAREAAAwACAAAAAAHxAAEAAAAAAAAAFAABAAAAAAIFAAEAAAAAAAAAGAADAAAAAAIdAAEA",
      "AAAAAAAAvgAAAE1paW5mAAAAAAADAAAAFWluZmUCAAAAAAEAAGF2MDEAAAAAFWluZmUCAAAAAAIAAGF2MDEAAAAAFWluZmUCAAAB",
      "AAMAAEV4aWYAAAAA12lwcnAAAACxaXBjbwAAABNjb2xybmNseAACAAIABoAAAAAMYXYxQ4EAHAAAAAAUaXNwZQAAAAAAAAAIAAAA",
      "BgAAAA5waXhpAAAAAAEIAAAAOGF1eEMAAAAAdXJuOm1wZWc6bXBlZ0I6Y2ljcDpzeXN0ZW1zOmF1eGlsaWFyeTphbHBoYQAAAAAM",
      "YXYxQ4EADAAAAAAUaXNwZQAAAAAAAAAIAAAABgAAABBwaXhpAAAAAAMICAgAAAAeaXBtYQAAAAAAAAACAAEEgYYHiAACBIIDhIUA",
      "AAAoaXJlZgAAAAAAAAAOYXV4bAACAAEAAQAAAA5jZHNjAAMAAQABAAAA8m1kYXQSAAoFGAi9YVAyCRsAAAEAAiEeBhIACggYCL1g",
      "gQEDQjIKGwAAAEAAsBNegAAAAAZFeGlmAABJSSoACAAAAAYAEgEDAAEAAAABAAAAGgEFAAEAAABWAAAAGwEFAAEAAABeAAAAKAED",
      "AAEAAAACAAAAEwIDAAEAAAABAAAAaYcEAAEAAABmAAAAAAAAADhjAADoAwAAOGMAAOgDAAAGAACQBwAEAAAAMDIxMAGRBwAEAAAA",
      "AQIDAACgBwAEAAAAMDEwMAGgAwABAAAA//8AAAKgBAABAAAACAAAAAOgBAABAAAABgAAAAAAAAA=",
    ].joined(),
    "jpeg": [
      "/9j/2wBDABsSFBcUERsXFhceHBsgKEIrKCUlKFE6PTBCYFVlZF9VXVtqeJmBanGQc1tdhbWGkJ6jq62rZ4C8ybqmx5moq6T/2wBD",
      "ARweHigjKE4rK06kbl1upKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKT/wAARCAAGAAgD",
      "ASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEG",
      "E1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4",
      "eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6",
      "/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEI",
      "FEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaH",
      "iImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIR",
      "AxEAPwDmqKKKAP/Z",
    ].joined(),
  ]

  static func tiny(_ name: String) -> Data { Data(base64Encoded: tiny[name] ?? "") ?? Data() }
}
