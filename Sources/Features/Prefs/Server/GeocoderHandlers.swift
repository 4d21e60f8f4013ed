import Foundation
import GeocoderAPI
import Hummingbird
import SandboxKit

/// The sandbox's stand-in for the US Census Bureau's one-line-address geocoder (the GeocoderAPI
/// contract, its JSON shape): an address matches by the last 5-digit ZIP code in it, at that ZIP
/// code's centroid (`ZIPCentroids`), with the ZIP's city and state. An address without a known
/// ZIP code has no match, as the real service answers an address it cannot find.
struct GeocoderHandlers: GeocoderAPI.APIProtocol {
  typealias Schemas = GeocoderAPI.Components.Schemas

  /// The longest address the Census geocoder takes, in characters.
  static let maximumAddressLength = 100
  static let benchmark = Schemas.Benchmark(
    id: "4", benchmarkName: "Public_AR_Current", benchmarkDescription: "Public Address Ranges - Current Benchmark",
    isDefault: true)
  static let addressProblem = "Address cannot be empty and cannot exceed 100 characters"

  func geocodeOneLineAddress(_ input: Operations.geocodeOneLineAddress.Input) async throws
    -> Operations.geocodeOneLineAddress.Output
  {
    let address = input.query.address
    let scalars = address.unicodeScalars
    guard scalars.count <= Self.maximumAddressLength, scalars.contains(where: { !$0.properties.isWhitespace })
    else {
      return .badRequest(.init(body: .json(.init(errors: [Self.addressProblem], status: "400"))))
    }
    var matches: [Schemas.AddressMatch] = []
    if let zip = ZIPCentroids.zip(in: address), let centroid = ZIPCentroids.lookup(zip) {
      matches.append(Self.match(address, centroid))
    }
    return .ok(
      .init(
        body: .json(
          .init(
            result: .init(
              input: .init(address: .init(address: address), benchmark: Self.benchmark), addressMatches: matches)))))
  }

  /// `4600 SILVER HILL RD, WASHINGTON, DC, 20233`: the street (the address's first comma-separated
  /// part, when it is not the ZIP code's), then the ZIP code's city, state and code.
  static func match(_ address: String, _ centroid: ZIPCentroid) -> Schemas.AddressMatch {
    let parts = address.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    let street = parts.count > 1 ? parts.first?.uppercased() : nil
    let city = centroid.city.uppercased()
    return .init(
      matchedAddress: ([street].compactMap { $0 } + [city, centroid.state, centroid.zip]).joined(separator: ", "),
      coordinates: .init(x: centroid.longitude, y: centroid.latitude),
      addressComponents: .init(zip: centroid.zip, city: city, state: centroid.state))
  }

  /// A missing or wrong parameter, in the Census geocoder's error shape.
  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    SandboxAPIError(
      status: .badRequest,
      json: [
        "errors": .array([
          .string("address, benchmark=Public_AR_Current and format=json are required; \(addressProblem)")
        ]),
        "status": .string("400"),
      ])
  }
}
