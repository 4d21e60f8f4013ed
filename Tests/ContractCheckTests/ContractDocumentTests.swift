import Foundation
import OpenAPIKit
import Testing
import Yams

@testable import ContractCheck

/// The repository's root, from this file's place (Tests/ContractCheckTests/…).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// Every OpenAPI document of the repository: Sources/Shared/Contracts/*/ and Sources/Features/*/API/*/.
func repositoryContracts() throws -> [(name: String, yaml: String)] {
  let sources = repositoryRoot.appendingPathComponent("Sources")
  guard let walker = FileManager.default.enumerator(atPath: sources.path) else { return [] }
  var found: [(String, String)] = []
  for case let relative as String in walker where relative.hasSuffix("/openapi.yaml") {
    let url = sources.appendingPathComponent(relative)
    found.append((url.deletingLastPathComponent().lastPathComponent, try String(contentsOf: url, encoding: .utf8)))
  }
  return found.sorted { $0.0 < $1.0 }
}

func loadContract(_ name: String) throws -> ContractDocument {
  let contract = try #require(try repositoryContracts().first { $0.name == name })
  return try ContractDocument(yaml: contract.yaml, name: contract.name)
}

/// Matches of a regular expression's first group in `text`, in order.
func captures(_ pattern: String, in text: String) throws -> [String] {
  let regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
  return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
    Range($0.range(at: 1), in: text).map { String(text[$0]) }
  }
}

@Suite("Loading the OpenAPI documents")
struct ContractDocumentTests {
  @Test("every openapi.yaml in the repository loads, with each of its operations")
  func everyDocument() throws {
    let contracts = try repositoryContracts()
    #expect(contracts.count >= 12)
    for (name, yaml) in contracts {
      let document = try ContractDocument(yaml: yaml, name: name)
      // Counted independently, from the text: the operationIds, and the method keys under paths.
      let ids = try captures(#"^\s+operationId:\s*"?([A-Za-z0-9_]+)"?\s*$"#, in: yaml)
      let methods = try captures(#"^    (get|put|post|delete|patch|head|options|trace):\s*$"#, in: yaml)
      #expect(document.operations.count == ids.count, "\(name)")
      #expect(document.operations.count == methods.count, "\(name)")
      #expect(document.operations.map(\.id) == ids, "\(name): ids in document order")
      #expect(document.operations.map(\.method) == methods.map { $0.uppercased() }, "\(name)")
      let servers = try captures(#"^servers:\s*\n\s+- url:\s*"?([^"\s]+)"?"#, in: yaml)
      let expectedBase = servers.first.map { $0 == "/" ? "" : $0 } ?? ""
      #expect(document.basePath == expectedBase, "\(name)")
      for operation in document.operations {
        #expect(operation.path.hasPrefix("/"))
        #expect(!operation.documentedStatuses.isEmpty, "\(name) \(operation.id)")
        // Every path template's variable is a required path parameter.
        let variables = try captures(#"\{([^}]+)\}"#, in: operation.path)
        let pathParameters = operation.parameters.filter { $0.location == .path }
        #expect(Set(pathParameters.map(\.name)) == Set(variables), "\(name) \(operation.id)")
        #expect(pathParameters.allSatisfy { $0.required })
      }
    }
  }

  @Test("the brokerage typeahead: a public GET with a required query and a default limit")
  func brokerage() throws {
    let document = try loadContract("BrokerageAPI")
    #expect(document.basePath == "")
    let search = try #require(document.operation(id: "searchBrokerages"))
    #expect(search.method == "GET" && search.isSafe && !search.requiresAuth)
    #expect(search.path == "/api/brokerages/search")
    #expect(search.documentedStatuses == ["200", "400", "500"])
    #expect(search.parameters.map(\.name) == ["q", "limit"])
    #expect(search.parameters.map(\.location) == [.query, .query])
    #expect(search.parameters.map(\.required) == [true, false])
    #expect(search.parameters[1].examples == ["15"])
    #expect(search.parameters[0].examples == ["keller"])
  }

  @Test("security: the document's applies unless the operation sets its own")
  func security() throws {
    let auth = try loadContract("AuthAPI")
    #expect(auth.basePath == "/auth/v1")
    #expect(auth.operation(id: "signup")?.requiresAuth == false)
    #expect(auth.operation(id: "signup")?.isSafe == false)
    let getUser = try #require(auth.operation(id: "getUser"))
    #expect(getUser.requiresAuth && getUser.isSafe)
    #expect(getUser.parameters.map(\.name) == ["apikey", "X-Supabase-Api-Version"])
    #expect(getUser.parameters.allSatisfy { $0.location == .header && !$0.required })
    #expect(auth.operation(id: "updateUser")?.method == "PUT")

    let admin = try loadContract("SandboxAdminAPI")
    #expect(admin.basePath == "/__sandbox/v1")
    // Every operator operation needs the admin token but the proof, which sets `security: []`.
    #expect(admin.operations.filter { !$0.requiresAuth }.map(\.id) == ["proof"])
    let recruiting = try loadContract("RecruitingAPI")
    #expect(recruiting.operation(id: "getPlayerPreferences")?.requiresAuth == true)
    #expect(recruiting.operation(id: "deletePlayerPreferences")?.isSafe == false)
    let kiosk = try loadContract("KioskAPI")
    #expect(kiosk.operations.allSatisfy { !$0.requiresAuth })
    #expect(kiosk.operations.filter(\.isSafe).map(\.id) == ["getNextSession"])
  }

  static let sample = """
    openapi: "3.1.0"
    info: {title: sample, version: "1"}
    servers:
      - url: https://{host}.example.com/functions/v1/
        variables:
          host: {default: api}
    security:
      - bearer: []
    paths:
      /items/{id}:
        parameters:
          - {name: id, in: path, required: true, schema: {type: string, example: "p-1"}}
          - {name: lang, in: query, schema: {type: string, enum: [en, fr]}}
        get:
          parameters:
            - name: lang
              in: query
              required: true
              example: de
              examples:
                french: {value: fr}
                shared: {$ref: "#/components/examples/English"}
              schema: {$ref: "#/components/schemas/Lang"}
            - {name: page, in: query, schema: {type: integer, examples: [2, 3], default: 1}}
            - {name: X-Trace, in: header, schema: {type: boolean, default: false}}
            - {name: session, in: cookie, schema: {type: string}}
          security: [{}, {bearer: []}]
          responses:
            "200": {description: ok}
        head:
          security: []
          responses:
            "2XX": {description: ok}
            default: {description: error}
    components:
      examples:
        English: {value: en}
      schemas:
        Lang: {type: string, default: en, enum: [it, en]}
      securitySchemes:
        bearer: {type: http, scheme: bearer}
    """

  @Test("parameters merge by name and place, and gather their examples in order")
  func parameters() throws {
    let document = try ContractDocument(yaml: Self.sample, name: "sample")
    #expect(document.basePath == "/functions/v1")
    #expect(document.operations.map(\.id) == ["GET /items/{id}", "HEAD /items/{id}"])
    let get = try #require(document.operations.first)
    #expect(get.parameters.map(\.name) == ["id", "lang", "page", "X-Trace", "session"])
    #expect(get.parameters.map(\.location) == [.path, .query, .query, .header, .cookie])
    #expect(get.parameters.map(\.required) == [true, true, false, false, false])
    #expect(get.parameters[0].examples == ["p-1"])
    #expect(get.parameters[1].examples == ["de", "fr", "en", "it"])
    #expect(get.parameters[2].examples == ["2", "3", "1"])
    #expect(get.parameters[3].examples == ["false"])
    #expect(get.parameters[4].examples.isEmpty)
    // An empty requirement among the alternatives makes authentication optional.
    #expect(!get.requiresAuth)
    let head = try #require(document.operations.last)
    #expect(head.isSafe && !head.requiresAuth)
    #expect(head.documentedStatuses == ["2XX", "default"])
    #expect(head.parameters.map(\.name) == ["id", "lang"])
  }

  @Test("every shipped document is valid in OpenAPIKit's model of OpenAPI 3.1, which deck does not link")
  func openAPIKitReadsEveryDocument() throws {
    for (name, yaml) in try repositoryContracts() {
      #expect(throws: Never.self, "\(name)") { _ = try YAMLDecoder().decode(OpenAPI.Document.self, from: yaml) }
    }
  }

  @Test("a broken document is refused with its name and the problem")
  func broken() throws {
    #expect {
      try ContractDocument(yaml: "openapi: \"3.1.0\"\npaths: {}\n", name: "NoInfo")
    } throws: { error in
      let description = String(describing: error)
      return (error as? ContractDocumentError)?.document == "NoInfo" && description.contains("NoInfo")
        && description.contains("info")
    }
    for (yaml, problem) in [
      ("- a list\n", "mapping at the top"), ("openapi: \"2.0\"\ninfo: {title: t, version: v}\n", "`openapi`"),
      ("openapi: 3.1.0\ninfo: {title: t, version: v}\npaths: [a]\n", "`paths`"),
      ("openapi: 3.1.0\ninfo: {title: t, version: v}\npaths: {users: {}}\n", "start with /"),
    ] {
      let error = #expect(throws: ContractDocumentError.self) { try ContractDocument(yaml: yaml, name: "Frame") }
      #expect(error?.problem.contains(problem) == true, "\(String(describing: error))")
    }
    #expect {
      try ContractDocument(yaml: "openapi: [\n", name: "Garbage")
    } throws: { error in
      (error as? ContractDocumentError)?.document == "Garbage"
    }
    let dangling = Self.sample.replacingOccurrences(
      of: "{$ref: \"#/components/schemas/Lang\"}", with: "{$ref: \"#/components/schemas/Nope\"}")
    #expect {
      try ContractDocument(yaml: dangling, name: "Dangling")
    } throws: { error in
      let description = String(describing: error)
      return description.contains("Dangling") && description.contains("#/components/schemas/Nope")
    }
  }
}
