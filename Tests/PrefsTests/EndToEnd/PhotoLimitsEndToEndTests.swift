import Foundation
import PrefsRules
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 44 through the real binaries: `deck prefs photo set` refuses a decompression bomb by its
/// header before decoding it (finding 8), and the sandbox's storage refuses it too and holds a
/// user's folder to 10 objects and 5 MB in all (findings 8 and 12).
@Suite("Profile photo limits", .endToEndTimeLimit)
struct PhotoLimitsEndToEndTests {
  func upload(_ server: SandboxProcess, name: String, _ body: Data) async throws -> (Int, [String: Any]) {
    var signIn = URLRequest(url: try #require(URL(string: server.url + "/auth/v1/token?grant_type=password")))
    signIn.httpMethod = "POST"
    signIn.httpBody = Data(#"{"email":"athlete@sandbox.test","password":"sandbox"}"#.utf8)
    signIn.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let (session, _) = try await URLSession.shared.data(for: signIn)
    let object = try #require(try JSONSerialization.jsonObject(with: session) as? [String: Any])
    let token = try #require(object["access_token"] as? String)
    let user = try #require((object["user"] as? [String: Any])?["id"] as? String)
    var request = URLRequest(
      url: try #require(URL(string: server.url + "/storage/v1/object/profile-photos/\(user)/\(name)")))
    request.httpMethod = "POST"
    request.httpBody = body
    request.setValue("image/png", forHTTPHeaderField: "Content-Type")
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    let (data, response) = try await URLSession.shared.data(for: request)
    let reply = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, reply)
  }

  @Test("a PNG that declares 50000×50000 pixels is refused at once (exit 64), by deck and by storage")
  func decompressionBomb() async throws {
    let (server, deck) = try DeckCLI.signedIn()
    let bomb = PhotoTestImages.bomb(width: 50_000, height: 50_000)
    let path = deck.home + "/bomb.png"
    try bomb.write(to: URL(fileURLWithPath: path))
    let started = Date()
    let set = try deck.run(["prefs", "photo", "set", path])
    #expect(set.status == 64, "\(set.stderr)")
    #expect(set.stderr.contains("declares 50000×50000 pixels (2500.0 megapixels)"), "\(set.stderr)")
    #expect(set.stderr.contains("at most 40 megapixels"))
    #expect(Date().timeIntervalSince(started) < 10, "nothing is decoded")
    let get = try deck.run(["prefs", "photo", "get", "--output", deck.home + "/back.png"])
    #expect(get.status != 0, "nothing was stored")

    let (status, reply) = try await upload(server, name: "avatar", bomb)
    #expect(status == 400, "\(reply)")
    #expect(reply["error"] as? String == "invalid_image")
  }

  @Test("storage keeps at most 10 objects in a user's folder (HTTP 400 carrying 413 beyond)")
  func folderQuota() async throws {
    let server = try SandboxProcess()
    let png = PhotoTestImages.png(width: 8, height: 8)
    for index in 0..<10 {
      let (status, reply) = try await upload(server, name: "backup-\(index)", png)
      #expect(status == 200, "\(index): \(reply)")
    }
    let (status, reply) = try await upload(server, name: "avatar", png)
    #expect(status == 400, "\(reply)")
    #expect(reply["statusCode"] as? String == "413")
    #expect(reply["error"] as? String == "Payload too large")
  }
}
