import DeckCore
import DeckSupport
import FoundationEssentials
import GeocoderAPI
import PrefsRules

/// The `geocoder` service: the US Census Bureau's one-line-address geocoder (or the sandbox's
/// stand-in, which answers from a ZIP-centroid table). Public: no token is ever sent to it.
struct GeocoderService: Sendable {
  let context: DeckContext

  /// A match: coordinates and where the geocoder placed the address.
  struct Match: Sendable, Equatable, Encodable {
    var latitude: Double
    var longitude: Double
    var matchedAddress: String
    var state: String
    var zip: String
  }

  /// The first match of `address`, or nil when nothing matches.
  func locate(_ address: String) async throws -> Match? {
    let client = try await context.client(.geocoder, auth: .none) {
      GeocoderAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
    }
    let response = try await client.geocodeOneLineAddress(
      query: .init(address: address, benchmark: .Public_AR_Current, format: .json)
    ).ok.body.json
    guard let match = response.result.addressMatches.first else { return nil }
    let latitude = match.coordinates.y
    let longitude = match.coordinates.x
    guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
      throw DeckError.failure(
        "The geocoder answered coordinates deck cannot use (\(latitude), \(longitude)); nothing was saved.")
    }
    return Match(
      latitude: latitude, longitude: longitude, matchedAddress: TerminalText.sanitize(match.matchedAddress),
      state: TerminalText.sanitize(match.addressComponents.state),
      zip: TerminalText.sanitize(match.addressComponents.zip))
  }

  /// The one-line address of a home location: `street, city, ST zip` (parts that are set).
  static func oneLine(_ location: HomeLocation) -> String {
    let last = [location.state, location.zip].compactMap { $0 }.joined(separator: " ")
    return [location.address, location.city, last.isEmpty ? nil : last].compactMap { $0 }.joined(separator: ", ")
  }

  /// The Census geocoder takes at most 100 characters.
  static let maximumAddressLength = 100
}
