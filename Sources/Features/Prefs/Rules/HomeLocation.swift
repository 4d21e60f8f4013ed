/// The home location used for distance calculations (spec 2E). Every field is optional.
public struct HomeLocation: FieldRecord {
  public var address: String?
  public var city: String?
  public var state: String?
  public var zip: String?
  public var latitude: Double?
  public var longitude: Double?

  public init(
    address: String? = nil, city: String? = nil, state: String? = nil, zip: String? = nil,
    latitude: Double? = nil, longitude: Double? = nil
  ) {
    self.address = address
    self.city = city
    self.state = state
    self.zip = zip
    self.latitude = latitude
    self.longitude = longitude
  }

  public static let category = PrefsCategory.location
  public static let defaults = HomeLocation()
  public var tagged: PrefsValue { .location(self) }

  /// Whether both coordinates are set (the form's "Coordinates ready").
  public var hasCoordinates: Bool { latitude != nil && longitude != nil }

  /// Whether the address (street, city, state or ZIP) differs from `other`'s.
  public func addressDiffers(from other: HomeLocation) -> Bool {
    address != other.address || city != other.city || state != other.state || zip != other.zip
  }

  /// This location (a change of `old`) without coordinates when its address changed but its
  /// coordinates did not: they were the old address's, and "Coordinates ready" would be untrue.
  public func clearingStaleCoordinates(from old: HomeLocation) -> HomeLocation {
    guard addressDiffers(from: old), latitude != nil || longitude != nil, latitude == old.latitude,
      longitude == old.longitude
    else { return self }
    var copy = self
    copy.latitude = nil
    copy.longitude = nil
    return copy
  }

  /// The catalog: the form's Address and Coordinates sections.
  public static let fields: [Field<HomeLocation>] =
    Field.section(
      "Address",
      [
        Field("address", \.address, "Street Address", .text),
        Field("city", \.city, "City", .text),
        Field("state", \.state, "State", .usState),
        Field("zip", \.zip, "ZIP", .zip),
      ])
    + Field.section(
      "Coordinates",
      [
        Field("latitude", \.latitude, "Latitude", .doubleRange(-90.0...90.0), aliases: ["lat"]),
        Field("longitude", \.longitude, "Longitude", .doubleRange(-180.0...180.0), aliases: ["lon", "lng"]),
      ])
}
