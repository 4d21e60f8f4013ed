import DeckSupport
import DeckValues
import Foundation
import Testing

/// The helpers that stand in for what the client used from full Foundation (issue 23: the client
/// links FoundationEssentials only). Each is checked against Foundation's own answer where
/// Foundation has one, since the tests may use it.
@Suite("text, path and number helpers")
struct FoundationEssentialsHelpersTests {
  @Test(
    "PathText answers as NSString's path methods do",
    arguments: ["/a/b/c", "/a/b/", "/a", "/", "a/b", "/a.d/b.json", "/x/.hidden", "rel/f.tar.gz", "/tmp/x.y/"])
  func paths(path: String) {
    let ns = path as NSString
    #expect(PathText.parent(path) == ns.deletingLastPathComponent, "\(path)")
    #expect(PathText.lastComponent(path) == ns.lastPathComponent, "\(path)")
    #expect(PathText.deletingExtension(path) == ns.deletingPathExtension, "\(path)")
  }

  /// Where this toolchain's NSString traps (a name without a slash) or has no answer, the
  /// expected values.
  @Test func pathsNSStringCannotAnswer() {
    #expect(PathText.parent("a") == "")
    #expect(PathText.lastComponent("a") == "a")
    #expect(PathText.deletingExtension("a.txt") == "a")
    #expect(PathText.parent("//a//b//") == "//a")
    #expect(PathText.lastComponent("//a//b//") == "b")
    #expect(PathText.parent("") == "")
    #expect(PathText.lastComponent("") == "")
    #expect(PathText.join("/a", "b") == "/a/b")
    #expect(PathText.join("/a/", "b") == "/a/b")
    #expect(PathText.join("", "b") == "b")
  }

  @Test("trimming, padding and pieces answer as Foundation's String methods do")
  func text() {
    for text in ["  a b \n", "\t\nx", "", "   ", "é\u{2003}", "a\r\n", "\"'quoted'\""] {
      #expect(text.trimming(.whitespacesAndNewlines) == text.trimmingCharacters(in: .whitespacesAndNewlines))
      #expect(text.trimming(.newlines) == text.trimmingCharacters(in: .newlines))
      #expect(text.trimming(.whitespaces) == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
      #expect(
        text.trimming(.characters(["\"", "'"])) == text.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")))
    }
    for (text, separator) in [("a, b, c", ", "), ("a::b::", "::"), ("", "x"), ("abc", "abc"), ("x\ny", "\n")] {
      #expect(text.pieces(separatedBy: separator) == text.components(separatedBy: separator))
    }
    #expect("abc".padded(toLength: 5) == "abc  ")
    #expect("abcdef".padded(toLength: 3) == "abc")
    #expect("abc".padded(toLength: 5) == "abc".padding(toLength: 5, withPad: " ", startingAt: 0))
  }

  @Test("NumberText writes what String(format:) wrote")
  func numbers() {
    for value in [0.0, 1.5, -1.25, 2.675, 1234.5678, -0.04, 99.95, 1e-7, 12345678.9] {
      for digits in [0, 1, 3] {
        let formatted = String(format: "%.\(digits)f", value)
        let ours = NumberText.fixed(value, digits: digits)
        // printf rounds the binary value exactly; NumberText rounds the scaled value, which
        // can differ in the last digit at an exact half (2.675 is 2.67499999… in binary).
        #expect(ours == formatted || abs((Double(ours) ?? .nan) - value) <= 0.5 / pow(10, Double(digits)) + 1e-9)
      }
    }
    #expect(NumberText.fixed(.infinity, digits: 1) == "inf")
    #expect(NumberText.fixed(.nan, digits: 1) == "nan")
    #expect(NumberText.fixed(1e300, digits: 1) == String(1e300))
    #expect(NumberText.padded(42, width: 5) == String(format: "%5d", 42))
    #expect(NumberText.padded(7, width: 2, pad: "0") == String(format: "%02d", 7))
    #expect(NumberText.hex(UInt8(10), width: 2, uppercase: true) == String(format: "%02X", 10))
    #expect(NumberText.hex(UInt32(0x1F), width: 4, uppercase: false) == String(format: "%04x", 0x1F))
    #expect(NumberText.short(30) == String(format: "%g", 30.0))
    #expect(NumberText.short(0.5) == String(format: "%g", 0.5))
  }

  @Test("JSONValue reads any JSON value and writes it back with sorted keys; anything else is not JSON")
  func jsonValue() throws {
    let text = #"{"b":[1,-2,18446744073709551615,1.5,true,null,"x"],"a":{"c":"/"}}"#
    let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    #expect(
      String(decoding: try encoder.encode(value), as: UTF8.self)
        == #"{"a":{"c":"/"},"b":[1,-2,18446744073709551615,1.5,true,null,"x"]}"#)
    #expect(JSONValue.isJSON(Data("42".utf8)))
    #expect(!JSONValue.isJSON(Data("{".utf8)))
    #expect(!JSONValue.isJSON(Data("Error: no".utf8)))
  }

  @Test("ErrorText names where a file's JSON went wrong")
  func errors() {
    struct Shape: Decodable {
      var name: String
      var items: [Int]
    }
    func describe(_ json: String) -> String {
      switch Result(catching: { try JSONDecoder().decode(Shape.self, from: Data(json.utf8)) }) {
      case .success: "decoded"
      case .failure(let error): ErrorText.describe(error)
      }
    }
    #expect(describe(#"{"items":[]}"#) == ".name is missing")
    #expect(describe(#"{"name":"n","items":[1,"x"]}"#).hasPrefix(".items[1]: "))
    #expect(describe("{").isEmpty == false)
  }
}
