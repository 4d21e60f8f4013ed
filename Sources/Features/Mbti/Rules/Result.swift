/// The server's answer to a submission (`POST /answers/`): the type and the score per letter.
public struct MbtiProfile: Sendable, Equatable, Codable {
  public var userId: String
  public var profile: String
  public var scores: [String: Int]

  enum CodingKeys: String, CodingKey {
    case userId = "user_id"
    case profile, scores
  }

  public init(userId: String, profile: String, scores: [String: Int]) {
    self.userId = userId
    self.profile = profile
    self.scores = scores
  }

  /// The four axes, in MBTI order, as the letter pairs the scores use.
  public static let axes: [(String, String)] = [("E", "I"), ("S", "N"), ("T", "F"), ("J", "P")]

  /// Whether the type is four letters, one of each axis, and every score is present and
  /// non-negative: a server answer that is anything else is not shown as a result.
  public var isWellFormed: Bool {
    let letters = profile.map(String.init)
    guard letters.count == 4 else { return false }
    for (index, (first, second)) in Self.axes.enumerated() {
      guard letters[index] == first || letters[index] == second else { return false }
      guard let a = scores[first], let b = scores[second], a >= 0, b >= 0 else { return false }
    }
    return true
  }

  /// One axis's share for the first letter, 0...1 (0.5 when both scores are 0).
  public func share(ofFirst axis: (String, String)) -> Double {
    let a = Double(scores[axis.0] ?? 0)
    let b = Double(scores[axis.1] ?? 0)
    return a + b == 0 ? 0.5 : a / (a + b)
  }
}
