import DeckValues
import Testing

@testable import ContractCheck

@Suite("The JSON parser")
struct JSONParserTests {
  func parse(_ text: String) throws -> JSONValue {
    try JSONParser.parse(Array(text.utf8))
  }

  @Test("booleans, numbers and null stay apart")
  func kinds() throws {
    #expect(try parse("true") == .bool(true))
    #expect(try parse("1").typeName == "integer")
    #expect(try parse("1.5").typeName == "number")
    #expect(try parse("0") != .bool(false))
    #expect(try parse("null") == .null)
    #expect(
      try parse(#"[1, "1", true, null]"#).arrayValue?.map(\.typeName) == ["integer", "string", "boolean", "null"])
  }

  @Test("numbers are kept as written, and huge ones do not overflow")
  func numbers() throws {
    let huge = String(repeating: "9", count: 500)
    let value = try #require(try parse(huge).numberValue)
    #expect(value.literal == huge && value.int == nil && value.isInteger)
    #expect(try parse("-0").numberValue?.isInteger == true)
    #expect(try parse("1e999999").numberValue?.double == .infinity)
    #expect(try parse("1.5e999999").numberValue?.isInteger == true)
    #expect(try parse("1.5").numberValue?.isInteger == false)
    #expect(try parse("9223372036854775807").numberValue?.int == Int.max)
    #expect(try parse("9223372036854775808").numberValue?.int == nil)
  }

  @Test("strings: escapes, surrogate pairs, lone surrogates")
  func strings() throws {
    #expect(try parse(#""a\"b\\c\/d\n\u00e9""#) == .string("a\"b\\c/d\né"))
    #expect(try parse(#""\ud83d\udc4d""#) == .string("👍"))
    #expect(try parse(#""\ud800x""#) == .string("\u{FFFD}x"))
    #expect(try parse("\"héé\"") == .string("héé"))
  }

  @Test("objects keep their order; a repeated key keeps its last value")
  func objects() throws {
    let object = try #require(try parse(#"{"b": 1, "a": 2, "b": 3}"#).objectValue)
    #expect(object.keys == ["b", "a"])
    #expect(object["b"] == .number(JSONNumber(3)))
  }

  @Test(
    "invalid JSON is refused with its place",
    arguments: [
      "", " ", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "1e", "tru", "nul", "\"abc", "\"a\u{01}b\"", "[1] x",
      "{'a': 1}", "\"\\x\"", "\"\\u12g4\"", "NaN", "+1",
    ])
  func invalid(_ text: String) {
    #expect(throws: JSONParseError.self) { try parse(text) }
  }

  @Test("invalid UTF-8 and deep nesting are errors, not crashes")
  func hostile() {
    #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
    #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(repeating: UInt8(ascii: "["), count: 100_000)) }
    #expect((try? JSONParser.parse(Array("\u{FEFF}[]".utf8))) == .array([]))
  }
}

@Suite("Reading YAML as JSON")
struct YAMLTreeTests {
  @Test("YAML 1.2 core scalars: only true/false are booleans, base-60 numbers are strings")
  func scalars() throws {
    let value = try YAMLTree.load(
      """
      words: [on, off, yes, no, True]
      time: 12:30
      numbers: [1, -2, 0x10, 1.5, 1e3, 99999999999999999999]
      quoted: ["1", "true"]
      nothing: ~
      date: 2024-01-01
      """)
    #expect(value["words"] == .array([.string("on"), .string("off"), .string("yes"), .string("no"), .bool(true)]))
    #expect(value["time"] == .string("12:30"))
    #expect(value["numbers"]?.arrayValue?.map(\.jsonText) == ["1", "-2", "16", "1.5", "1000", "99999999999999999999"])
    #expect(value["quoted"] == .array([.string("1"), .string("true")]))
    #expect(value["nothing"] == .null)
    #expect(value["date"] == .string("2024-01-01"))
    #expect(value.objectValue?.keys == ["words", "time", "numbers", "quoted", "nothing", "date"])
  }
}
