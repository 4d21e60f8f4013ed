import Foundation
import Testing

@testable import ContractCheck

/// A JSON response as a backend would send it.
func jsonResponse(_ body: String, status: Int = 200, contentType: String = "application/json; charset=utf-8")
  -> ContractResponse
{
  ContractResponse(status: status, headers: ["Content-Type": contentType], body: Array(body.utf8))
}

@Suite("Checking a response against its operation")
struct ContractCheckTests {
  /// The kiosk's next-session answer, as KioskAPI documents it.
  static let nextSession = """
    {"session": {"publicId": "sess_xyz789", "status": "PENDING", "starRating": null,
                 "generatedReviewText": null, "createdAt": "2024-05-01T10:00:00Z"},
     "order": {"publicId": "ord_1", "totalAmount": 4599, "currency": "USD",
               "items": [{"name": "Shirt", "quantity": 1, "amount": 2599},
                         {"name": "Hat", "quantity": 2, "amount": 1000}]}}
    """

  func getNextSession() throws -> ContractOperation {
    try #require(try loadContract("KioskAPI").operation(id: "getNextSession"))
  }

  @Test("a conforming response has no findings")
  func conforming() throws {
    let operation = try getNextSession()
    #expect(operation.check(jsonResponse(Self.nextSession)) == [])
    #expect(operation.check(jsonResponse(#"{"error": "unknown store"}"#, status: 404)) == [])
    let brokerages = try #require(try loadContract("BrokerageAPI").operation(id: "searchBrokerages"))
    let list = #"[{"id": "2b1f3a52-8c4e-4d7a-9f10-1a2b3c4d5e6f", "name": "Acme Realty"}]"#
    #expect(brokerages.check(jsonResponse(list, contentType: "Application/JSON")) == [])
    #expect(brokerages.check(jsonResponse("[]")) == [])
  }

  @Test("a missing required field is one finding at its path")
  func missingField() throws {
    let body = Self.nextSession.replacingOccurrences(of: #""status": "PENDING","#, with: "")
    #expect(
      try getNextSession().check(jsonResponse(body)) == [
        ContractFinding(
          operation: "getNextSession", kind: .body, path: "$.session.status", expected: "required", actual: "missing")
      ])
  }

  @Test("a wrong type is one finding at its path")
  func wrongType() throws {
    let body = Self.nextSession.replacingOccurrences(of: #""quantity": 2"#, with: #""quantity": "2""#)
    let findings = try getNextSession().check(jsonResponse(body))
    #expect(
      findings == [
        ContractFinding(
          operation: "getNextSession", kind: .body, path: "$.order.items[1].quantity", expected: "integer",
          actual: #"string "2""#)
      ])
    #expect(findings.first?.message == #"getNextSession $.order.items[1].quantity: expected integer, got string "2""#)
  }

  @Test("an unknown enum value is one finding at its path")
  func unknownEnumValue() throws {
    let body = Self.nextSession.replacingOccurrences(of: "PENDING", with: "EXPIRED")
    #expect(
      try getNextSession().check(jsonResponse(body)) == [
        ContractFinding(
          operation: "getNextSession", kind: .body, path: "$.session.status",
          expected: "one of [PENDING, RATED, APPROVED, DECLINED, POSTED_INTENT]", actual: #"string "EXPIRED""#)
      ])
  }

  @Test("an undocumented status is one finding that lists the documented ones")
  func undocumentedStatus() throws {
    let findings = try getNextSession().check(jsonResponse(#"{"error": "boom"}"#, status: 500))
    #expect(
      findings == [
        ContractFinding(
          operation: "getNextSession", kind: .status, path: "", expected: "documented: 200, 404", actual: "500")
      ])
    #expect(findings.first?.message == "getNextSession: expected documented: 200, 404, got 500")
  }

  @Test("every finding of a response is reported, each with its path")
  func severalFindings() throws {
    let body = Self.nextSession.replacingOccurrences(of: "PENDING", with: "EXPIRED")
      .replacingOccurrences(of: "4599", with: "45.99").replacingOccurrences(of: #""name": "Hat", "#, with: "")
    let findings = try getNextSession().check(jsonResponse(body))
    #expect(findings.map(\.path) == ["$.session.status", "$.order.totalAmount", "$.order.items[1].name"])
    #expect(findings.allSatisfy { $0.kind == .body && $0.operation == "getNextSession" })
  }

  @Test("the content type must be one the status documents; parameters are ignored")
  func contentType() throws {
    let operation = try getNextSession()
    #expect(
      operation.check(jsonResponse("<html></html>", contentType: "text/html")) == [
        ContractFinding(
          operation: "getNextSession", kind: .contentType, path: "", expected: "application/json", actual: "text/html")
      ])
    let noType = ContractResponse(status: 200, headers: [:], body: Array(Self.nextSession.utf8))
    #expect(operation.check(noType).map(\.kind) == [.contentType])
    #expect(operation.check(noType).first?.actual == "missing")
    #expect(operation.check(jsonResponse(Self.nextSession, contentType: "application/json;charset=UTF-8")) == [])
  }

  @Test("a body that is not JSON is one finding at $")
  func notJSON() throws {
    let findings = try getNextSession().check(jsonResponse("{\"session\": "))
    #expect(findings.count == 1)
    #expect(findings.first?.kind == .body && findings.first?.path == "$")
    #expect(findings.first?.actual.hasPrefix("invalid JSON") == true)
    #expect(try getNextSession().check(jsonResponse("")).first?.actual == "empty")
  }

  static let responses = """
    openapi: "3.1.0"
    info: {title: responses, version: "1"}
    paths:
      /things:
        get:
          operationId: listThings
          responses:
            "200":
              description: ok
              headers:
                X-Total-Count:
                  required: true
                  schema: {type: integer, minimum: 0}
                X-Mode: {schema: {type: string, enum: [fast, slow]}}
                Link: {$ref: "#/components/headers/Link"}
              content:
                application/problem+json:
                  schema: {type: object, required: [title]}
            "204": {description: nothing}
            "4XX":
              description: client error
              content:
                text/plain: {schema: {type: string}}
            default:
              description: other
              content:
                "*/*": {}
        head:
          operationId: headThings
          responses:
            "200":
              description: ok
              headers:
                X-Total-Count: {required: true, schema: {type: integer}}
              content:
                application/json: {schema: {type: object}}
    components:
      headers:
        Link: {required: true, schema: {type: string}}
    """

  @Test("statuses match exactly, then by range, then default; headers are checked; HEAD has no body")
  func statusesAndHeaders() throws {
    let document = try ContractDocument(yaml: Self.responses, name: "responses")
    let list = try #require(document.operation(id: "listThings"))
    let head = try #require(document.operation(id: "headThings"))
    let problem = ["content-type": "application/problem+json", "x-total-count": "3", "LINK": "<x>"]
    #expect(list.check(ContractResponse(status: 200, headers: problem, body: Array(#"{"title":"t"}"#.utf8))) == [])
    // The +json type's body is checked as JSON.
    #expect(
      list.check(ContractResponse(status: 200, headers: problem, body: Array("{}".utf8))).map(\.path) == ["$.title"])
    var missing = problem
    missing["x-total-count"] = nil
    missing["X-Mode"] = "medium"
    let headerFindings = list.check(
      ContractResponse(status: 200, headers: missing, body: Array(#"{"title":"t"}"#.utf8)))
    #expect(headerFindings.map(\.kind) == [.header, .header])
    #expect(Set(headerFindings.map(\.path)) == ["X-Total-Count", "X-Mode"])
    #expect(headerFindings.first { $0.path == "X-Total-Count" }?.actual == "missing")
    var negative = problem
    negative["x-total-count"] = "-1"
    #expect(
      list.check(ContractResponse(status: 200, headers: negative, body: Array(#"{"title":"t"}"#.utf8))).map(\.expected)
        == [">= 0"])
    // 204 documents no content: an empty answer without a content type is fine.
    #expect(list.check(ContractResponse(status: 204, headers: [:], body: [])) == [])
    // 418 falls in 4XX (text/plain); 503 in default (any type).
    #expect(list.check(ContractResponse(status: 418, headers: ["Content-Type": "text/plain"], body: [])) == [])
    #expect(list.check(jsonResponse("{}", status: 418)).map(\.kind) == [.contentType])
    #expect(list.check(ContractResponse(status: 503, headers: ["Content-Type": "text/html"], body: [1, 2])) == [])
    // HEAD: headers only.
    #expect(head.check(ContractResponse(status: 200, headers: ["X-Total-Count": "3"], body: [])) == [])
    #expect(head.check(ContractResponse(status: 200, headers: [:], body: [])).map(\.path) == ["X-Total-Count"])
    #expect(head.check(ContractResponse(status: 500, headers: [:], body: [])).map(\.kind) == [.status])
  }

  @Test("findings encode as JSON with their fields")
  func codable() throws {
    let finding = ContractFinding(operation: "op", kind: .contentType, path: "", expected: "a", actual: "b")
    let data = try JSONEncoder().encode(finding)
    #expect(try JSONDecoder().decode(ContractFinding.self, from: data) == finding)
    #expect(String(decoding: data, as: UTF8.self).contains(#""kind":"contentType""#))
  }

  @Test("random bytes as a body never trap: at most findings")
  func randomBodies() throws {
    let operation = try getNextSession()
    var generator = SplitMix64(seed: 0x5EED)
    let valid = Array(Self.nextSession.utf8)
    for round in 0..<3000 {
      var body: [UInt8]
      if round % 2 == 0 {
        body = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      } else {
        // A valid body with a few bytes changed reaches deeper into the parser and the schema.
        body = valid
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
          body[Int.random(in: 0..<body.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
      }
      let findings = operation.check(bytesResponse(body))
      #expect(findings.count <= ContractOperation.findingLimit)
      #expect(findings.allSatisfy { $0.actual.count <= 80 && $0.expected.count <= 80 })
    }
    // Deep nesting, huge numbers and lone surrogates are findings, not crashes.
    let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
    #expect(operation.check(bytesResponse(deep)).map(\.path) == ["$"])
    let huge =
      #"{"session": "none", "order": {"totalAmount": 1e999999, "items": [{"name": "\ud800", "quantity": "#
      + String(repeating: "9", count: 400) + #", "amount": -0}]}}"#
    let findings = operation.check(jsonResponse(huge))
    #expect(findings.map(\.path) == ["$.session"])
  }
}

func bytesResponse(_ body: [UInt8]) -> ContractResponse {
  ContractResponse(status: 200, headers: ["content-type": "application/json"], body: body)
}

/// A seeded generator, so a failing round can be replayed.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
