/// The centre of one US ZIP code's area, with its state and city: what the sandbox's geocoder
/// matches an address by.
struct ZIPCentroid: Sendable, Equatable {
  var zip: String
  var state: String
  var city: String
  var latitude: Double
  var longitude: Double
}

/// Lookups in the embedded table: `ZipCentroidsData.csv`, the text of `../Data/zip-centroids.csv`
/// (made by `scripts/zip-centroids`), which the EmbedData build tool plugin compiles in. A binary
/// search over the text's lines, which are sorted by ZIP code, so nothing is parsed up front.
enum ZIPCentroids {
  /// The centroid of `zip` (5 digits), or nil when the table has no such ZIP code.
  static func lookup(_ zip: String) -> ZIPCentroid? {
    let key = Array(zip.utf8)
    guard key.count == 5 else { return nil }
    let text = ZipCentroidsData.csv
    if let found = text.utf8.withContiguousStorageIfAvailable({ search(UnsafeBufferPointer(rebasing: $0[...]), key) }) {
      return found
    }
    return Array(text.utf8).withUnsafeBufferPointer { search($0, key) }
  }

  private static func search(_ bytes: UnsafeBufferPointer<UInt8>, _ key: [UInt8]) -> ZIPCentroid? {
    let newline = UInt8(ascii: "\n")
    var low = 0
    var high = bytes.count
    while low < high {
      let middle = (low + high) / 2
      var start = middle
      while start > low && bytes[start - 1] != newline { start -= 1 }
      var end = middle
      while end < high && bytes[end] != newline { end += 1 }
      let line = bytes[start..<end]
      guard line.count > 5 else {
        // A line too short to hold a ZIP code (none is): leave it out of the range.
        if start == low { low = end + 1 } else { high = start }
        continue
      }
      let zip = line.prefix(5)
      if zip.elementsEqual(key) { return parse(line) }
      if zip.lexicographicallyPrecedes(key) { low = end + 1 } else { high = start }
    }
    return nil
  }

  /// One `ZIP,STATE,LATITUDE,LONGITUDE,CITY` line, or nil when it is not one.
  static func parse(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> ZIPCentroid? {
    let parts = line.split(separator: UInt8(ascii: ","), maxSplits: 4, omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    guard parts.count == 5, parts[0].count == 5, parts[1].count == 2, let latitude = Double(parts[2]),
      let longitude = Double(parts[3])
    else { return nil }
    return ZIPCentroid(zip: parts[0], state: parts[1], city: parts[4], latitude: latitude, longitude: longitude)
  }

  /// The ZIP code in an address: the last run of exactly 5 ASCII digits (in `12345-6789`, the
  /// `12345`), or nil when there is none.
  static func zip(in address: String) -> String? {
    var runs: [String] = []
    var current = ""
    for scalar in address.unicodeScalars {
      if ("0"..."9").contains(scalar) {
        current.unicodeScalars.append(scalar)
      } else {
        runs.append(current)
        current = ""
      }
    }
    runs.append(current)
    return runs.last { $0.count == 5 }
  }
}
