import DeckValues
import PrefsRules
import Testing

@Suite("Home location")
struct LocationTests {
  @Test(
    "coordinates: the bounds are accepted",
    arguments: [("latitude", "-90"), ("latitude", "90"), ("longitude", "-180"), ("longitude", "180"), ("lat", "0")])
  func inside(key: String, value: String) throws {
    _ = try HomeLocation().applying(["\(key)=\(value)"])
  }

  @Test(
    "coordinates: just outside is refused",
    arguments: [
      ("latitude", "-90.01", "-90.0–90.0"), ("latitude", "90.5", "-90.0–90.0"),
      ("longitude", "-180.5", "-180.0–180.0"), ("longitude", "180.01", "-180.0–180.0"),
    ])
  func outside(key: String, value: String, allowed: String) {
    #expect(refusal(HomeLocation(), ["\(key)=\(value)"]) == ["\(key): \(value) is out of range; allowed \(allowed)"])
  }

  @Test("non-numbers and non-finite numbers are refused without trapping")
  func notNumbers() {
    #expect(refusal(HomeLocation(), ["latitude=nan"]) == ["latitude: \"nan\" is not a number; allowed -90.0–90.0"])
    #expect(refusal(HomeLocation(), ["longitude=inf"]) == ["longitude: \"inf\" is not a number; allowed -180.0–180.0"])
    let location = HomeLocation(latitude: .nan, longitude: .infinity)
    #expect(
      location.validate().messages == [
        "latitude: nan is not a finite number; allowed -90.0–90.0",
        "longitude: inf is not a finite number; allowed -180.0–180.0",
      ])
  }

  @Test(
    "ZIP is 5 digits with an optional -dddd",
    arguments: [
      ("02139", true), ("02139-4307", true), ("2139", false), ("021394307", false), ("02139-43", false),
      ("ABCDE", false), ("02139-43071", false),
    ])
  func zip(value: String, valid: Bool) {
    let expected =
      valid
      ? []
      : ["zip: \"\(value)\" is not a ZIP code; use 5 digits, optionally followed by -dddd, e.g. 02139 or 02139-4307"]
    #expect(refusal(HomeLocation(), ["zip=\(value)"]) == expected)
  }

  @Test("state is upper-cased and checked")
  func state() throws {
    #expect(try HomeLocation().applying(["state=tx"]).value.state == "TX")
    #expect(
      refusal(HomeLocation(), ["state=ZZ"]) == [
        "state: \"ZZ\" is not a US state code; use a 2-letter US state or DC code, e.g. CA"
      ])
  }

  @Test("coordinates are ready only when both are set")
  func coordinatesReady() {
    #expect(!HomeLocation(latitude: 42.36).hasCoordinates)
    #expect(HomeLocation(latitude: 42.36, longitude: -71.06).hasCoordinates)
  }

  @Test("the default location is empty and encodes as {}")
  func defaults() throws {
    #expect(HomeLocation.defaults == HomeLocation())
    #expect(try encodedJSON(HomeLocation.defaults) == .object([:]))
    let full = HomeLocation(
      address: "1 Main St", city: "Boston", state: "MA", zip: "02139", latitude: 42.36, longitude: -71.06)
    #expect(Set(try encodedObject(full).keys) == ["address", "city", "state", "zip", "latitude", "longitude"])
  }
}
