import Foundation
import Testing

/// Issue 26, item 8: the recruiting API refuses positions of another sport, as deck does.
extension PrefsServerTests {
  @Test("a position that is not the sport's is refused with 400, by POST and by PATCH")
  func positionsBelongToTheSport() async throws {
    try await withSandbox { base, _ in
      let athlete = try await token(base, "athlete@sandbox.test")
      let post = try await request(
        base, "POST", "/api/user/preferences/player",
        body: #"{"primarySport": "Baseball", "primaryPosition": "Goalie", "positions": ["Shortstop", "Goalie"]}"#,
        bearer: athlete)
      #expect(post.status == 400)
      #expect(post.error.contains(#"primaryPosition: "Goalie" is not a Baseball position"#))
      #expect(post.error.contains(#"positions: "Goalie" is not a Baseball position"#))

      let good = try await request(
        base, "PATCH", "/api/user/preferences/player-details",
        body: #"{"primarySport": "Baseball", "primaryPosition": "Shortstop"}"#, bearer: athlete)
      #expect(good.status == 200, "\(good.object)")
      // The stored sport is Baseball: a PATCH of the position alone is checked against it.
      let patch = try await request(
        base, "PATCH", "/api/user/preferences/player-details", body: #"{"primaryPosition": "Goalie"}"#,
        bearer: athlete)
      #expect(patch.status == 400)
      #expect(patch.error.contains(#"primaryPosition: "Goalie" is not a Baseball position"#))
      // Changing the sport without the position is refused too: the stored position is not the new sport's.
      let sport = try await request(
        base, "PATCH", "/api/user/preferences/player-details", body: #"{"primarySport": "Soccer"}"#, bearer: athlete)
      #expect(sport.status == 400)
      #expect(sport.error.contains(#"primaryPosition: "Shortstop" is not a Soccer position"#))
    }
  }
}
