import DeckCore
import Foundation
import HTTPTypes
import OpenAPIRuntime
import RecruitingAPI
import StorageAPI
import Testing

@testable import PrefsModule

/// deck's generated clients read real backends' answers, which carry fields the contracts do not
/// name (real Storage adds them over time), and real Storage's refusals (HTTP 400 carrying the
/// real status). The answers are real Storage's shapes, which the sandbox does not send: a
/// transport hands them over as a server would.
@Suite("Real backends' answers")
struct StorageAnswerTests {
  /// Answers every request with one status and body.
  struct Answer: ClientTransport {
    var status: HTTPResponse.Status
    var body: String

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
      -> (HTTPResponse, HTTPBody?)
    {
      (HTTPResponse(status: status, headerFields: [.contentType: "application/json"]), HTTPBody(self.body))
    }
  }

  static let url = URL(string: "http://127.0.0.1:1")!

  @Test("an object's information with fields the contract does not name still decodes")
  func unknownFieldsInObjectInfo() async throws {
    let info = """
      {"id":"5f0c","version":"5f0c","name":"u/avatar","bucket_id":"profile-photos","size":12,
       "content_type":"image/png","cache_control":"max-age=3600","etag":"\\"5f0c\\"","metadata":{},
       "created_at":"2026-01-01T00:00:00Z","last_modified":"2026-01-02T00:00:00Z",
       "last_accessed_at":"2026-01-02T00:00:00Z","user_metadata":{"camera":"front"},"a_new_field":[1, 2]}
      """
    let client = StorageAPI.Client(serverURL: Self.url, transport: Answer(status: .ok, body: info))
    let answer = try await client.getObjectInfo(path: .init(bucket: "profile-photos", owner: "u", name: "avatar"))
    let json = try answer.ok.body.json
    #expect(json.size == 12)
    #expect(json.content_type == "image/png")
  }

  @Test("a preferences answer with fields the contract does not name still decodes")
  func unknownFieldsInPreferences() async throws {
    let envelope = """
      {"category":"player","data":null,"owner":"a@b.test","ownerId":"u","readOnly":false,
       "createdAt":null,"updatedAt":null,"etag":"W/1","servedBy":"v3"}
      """
    let client = RecruitingAPI.Client(serverURL: Self.url, transport: Answer(status: .ok, body: envelope))
    let json = try await client.getPlayerPreferences().ok.body.json
    #expect(json.owner == "a@b.test")
  }

  @Test(
    "real Storage's 400 carrying a status is read as that status: 404 is no photo, InvalidJWT not signed in",
    arguments: [
      (#"{"statusCode":"404","code":"NoSuchKey","error":"not_found","message":"Object not found"}"#, 404),
      (#"{"statusCode":"400","code":"InvalidJWT","error":"InvalidJWT","message":"exp claim"}"#, 401),
      (#"{"statusCode":"403","error":"Unauthorized","message":"new row violates row-level security"}"#, 403),
      (#"{"statusCode":"400","error":"InvalidKey","message":"Invalid key"}"#, 400),
      ("not JSON", 400),
    ])
  func refusals(body: String, status: Int) async throws {
    let (response, _) = try await StorageStatusMiddleware().intercept(
      HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), body: nil, baseURL: Self.url,
      operationID: "downloadObject"
    ) { request, requestBody, url in
      try await Answer(status: .badRequest, body: body).send(request, body: requestBody, baseURL: url, operationID: "")
    }
    #expect(response.status.code == status)
  }
}
