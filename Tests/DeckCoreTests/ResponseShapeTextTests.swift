import DeckCore
import DeckSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// Issue 45, item 8: a response that does not decode is said in words (the field as a JSON
/// path, what was expected, what came), each DecodingError case as JSONDecoder throws it.
@Suite("Response shape text")
struct ResponseShapeTextTests {
  struct Brokerage: Decodable {
    var name: String
    var count: Int?
    var open: Bool?
    var tags: [String]?
    var address: Address?
    var state: State?
  }
  struct Address: Decodable { var city: String }
  enum State: String, Decodable { case active }

  /// The DecodingError JSONDecoder throws for `json` read as a list of brokerages.
  static func decodingError(_ json: String) throws -> DecodingError {
    do {
      _ = try JSONDecoder().decode([Brokerage].self, from: Data(json.utf8))
    } catch let error as DecodingError {
      return error
    }
    throw CancellationError()
  }

  static func text(_ json: String) throws -> String {
    ResponseShapeText.describe(try decodingError(json))
  }

  @Test func everyCaseNamesTheFieldWhatWasExpectedAndWhatCame() throws {
    #expect(try Self.text(#"[{"name": 42}]"#) == "`[0].name` should be text but the server sent a number")
    #expect(
      try Self.text(#"[{"name": "a"}, {"name": "b", "count": "3"}]"#)
        == "`[1].count` should be a whole number but the server sent text")
    #expect(
      try Self.text(#"[{"name": "a", "open": "yes"}]"#) == "`[0].open` should be true or false but the server sent text"
    )
    #expect(
      try Self.text(#"[{"name": "a", "tags": {}}]"#) == "`[0].tags` should be a list but the server sent an object")
    #expect(
      try Self.text(#"[{"name": "a", "address": []}]"#)
        == "`[0].address` should be an object but the server sent a list")
    #expect(try Self.text(#"{"name": "a"}"#) == "the body should be a list but the server sent an object")
    // valueNotFound: null where a value must be.
    #expect(try Self.text(#"[{"name": null}]"#) == "`[0].name` should be text but the server sent null")
    // keyNotFound: the path includes the missing key.
    #expect(try Self.text(#"[{"address": {"city": "x"}}]"#) == "`[0].name` is missing")
    #expect(try Self.text(#"[{"name": "a", "address": {}}]"#) == "`[0].address.city` is missing")
    // dataCorrupted: a value of a closed list the contract does not name, and a body that is no JSON.
    #expect(
      try Self.text(#"[{"name": "a", "state": "suspended"}]"#)
        == #"`[0].state` has a value the contract does not list: "suspended""#)
    #expect(try Self.text(#"{"error": "malformed"#) == "the body is not valid JSON")
  }

  @Test func noSwiftTypeNameOrDecoderPhraseIsShown() throws {
    for json in [#"[{"name": 42}]"#, #"[{"name": "a", "tags": {}}]"#, #"{"name": "a"}"#, #"[{"name": null}]"#, "[{}]"] {
      let text = try Self.text(json)
      for phrase in ["Expected to decode", "Index 0", "Array<", "Dictionary<", "String", "CodingKeys", "instead"] {
        #expect(!text.contains(phrase), "\(text)")
      }
    }
  }

  static func clientError(_ decoding: DecodingError, fault: String?) -> ClientError {
    var response = HTTPResponse(status: .ok)
    if let fault { response.headerFields[HTTPField.Name("X-Sandbox-Fault")!] = fault }
    return ClientError(
      operationID: "searchBrokerages", operationInput: (), request: nil, requestBody: nil,
      baseURL: URL(string: "http://127.0.0.1:8787"), response: response, responseBody: nil,
      causeDescription: "Unknown", underlyingError: decoding)
  }

  /// With `X-Sandbox-Fault`, the rule is named and the URL hint is gone; without it, the hint
  /// says where to look.
  @Test func aSandboxFaultRuleIsNamedInsteadOfTheURLHint() throws {
    let decoding = try Self.decodingError(#"[{"name": 42}]"#)
    let faulted = ErrorPresenter.deckError(for: Self.clientError(decoding, fault: "rule 7"))
    #expect(faulted.exitCode == 1)
    #expect(faulted.message.contains("answered searchBrokerages with a body deck cannot read"))
    #expect(faulted.message.contains("`[0].name` should be text but the server sent a number."))
    #expect(faulted.message.contains("fault rule 7"))
    #expect(faulted.hint?.contains("deck sandbox fault clear 7") == true)
    #expect(faulted.hint?.contains("URL") == false)
    #expect(!faulted.message.contains(".."))

    let plain = ErrorPresenter.deckError(for: Self.clientError(decoding, fault: nil))
    #expect(plain.message.contains("`[0].name` should be text but the server sent a number."))
    #expect(!plain.message.contains("fault"))
    #expect(plain.hint?.contains("deck env show") == true)
    // A header that is not the sandbox's mark names no rule.
    let odd = ErrorPresenter.deckError(for: Self.clientError(decoding, fault: "rule 7; rm -rf"))
    #expect(!odd.message.contains("fault rule"))
  }
}
