import Foundation
import Testing

@testable import PrefsServer

/// The geocoder's ZIP table is a data file, `Sources/Features/Prefs/Data/zip-centroids.csv`,
/// which the EmbedData build tool plugin compiles into PrefsServer as `ZipCentroidsData.csv`.
/// These fail when the table is missing, stale or changed on its way into the binary.
@Suite("The embedded ZIP table")
struct ZIPTableTests {
  /// The CSV file in the checkout: the package root is the nearest folder up from this file
  /// that holds Package.swift.
  static func tableOnDisk() throws -> String {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
      let parent = folder.deletingLastPathComponent()
      try #require(parent.path != folder.path, "no Package.swift above \(#filePath)")
      folder = parent
    }
    let file = folder.appendingPathComponent("Sources/Features/Prefs/Data/zip-centroids.csv")
    return try String(contentsOf: file, encoding: .utf8)
  }

  @Test("the embedded text is the CSV file's, byte for byte, one line per ZIP code")
  func embeddedIsTheFile() throws {
    let onDisk = try Self.tableOnDisk()
    let lines = ZipCentroidsData.csv.split(separator: "\n", omittingEmptySubsequences: false)
    let fileLines = onDisk.split(separator: "\n", omittingEmptySubsequences: false)
    // Compared without printing 1.5 MB of text when they differ: the first line that does.
    let same = ZipCentroidsData.csv.utf8.elementsEqual(onDisk.utf8)
    let firstDifference = zip(lines, fileLines).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(
      same,
      """
      the embedded table (\(lines.count) lines) is not the file's (\(fileLines.count)); first different line: \
      \(firstDifference.map { "\($0.offset + 1): \($0.element.0) vs \($0.element.1)" } ?? "none")
      """)
    #expect(ZipCentroidsData.csv.hasSuffix("Ketchikan\n"), "the text ends with the file's last line break")
    #expect(ZipCentroidsData.csv.split(separator: "\n").count == 42_342, "one line per ZIP code")
  }

  @Test("every line of the file is found, with its state, city and coordinates")
  func everyLineResolves() throws {
    var wrong: [Substring] = []
    for line in try Self.tableOnDisk().split(separator: "\n") {
      let fields = line.split(separator: ",", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
      let expected = ZIPCentroid(
        zip: fields[0], state: fields[1], city: fields[4], latitude: Double(fields[2]) ?? .nan,
        longitude: Double(fields[3]) ?? .nan)
      if ZIPCentroids.lookup(fields[0]) != expected { wrong.append(line) }
    }
    #expect(wrong.isEmpty, "\(wrong.count) lines not found as written, first: \(wrong.prefix(3))")
  }

  @Test(
    "known ZIP codes resolve to their centroid",
    arguments: [
      ("00501", "NY", "Holtsville", 40.8154, -73.0451),  // the first line
      ("02139", "MA", "Cambridge", 42.3647, -71.1042),
      ("10001", "NY", "New York", 40.7484, -73.9967),
      ("60601", "IL", "Chicago", 41.8858, -87.6181),
      ("90210", "CA", "Beverly Hills", 34.0901, -118.4065),
      ("99950", "AK", "Ketchikan", 55.3422, -131.6478),  // the last line
    ])
  func knownZIP(zip: String, state: String, city: String, latitude: Double, longitude: Double) {
    #expect(
      ZIPCentroids.lookup(zip)
        == ZIPCentroid(zip: zip, state: state, city: city, latitude: latitude, longitude: longitude))
  }

  @Test(
    "a ZIP code the table does not hold, or no ZIP code, gives nil",
    arguments: [
      "00000", "00500", "00502", "99951", "99999", "0213", "021390", "", "abcde", "0213 ",
    ])
  func unknownZIP(zip: String) {
    #expect(ZIPCentroids.lookup(zip) == nil)
  }
}
