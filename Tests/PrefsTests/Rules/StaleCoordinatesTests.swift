import PrefsRules
import Testing

/// Issue 26, item 9: coordinates belong to the address they were looked up for.
@Suite("Stale coordinates")
struct StaleCoordinatesTests {
  static let cambridge = HomeLocation(
    address: "77 Massachusetts Ave", city: "Cambridge", state: "MA", zip: "02139", latitude: 42.36, longitude: -71.1)

  @Test(
    "a changed address without new coordinates clears the old ones, with a note",
    arguments: ["address", "city", "state", "zip"])
  func changedAddressClears(part: String) throws {
    let values = ["address": "1 Main St", "city": "Boston", "state": "NY", "zip": "90210"]
    let (changed, _) = try Self.cambridge.applying(["\(part)=\(values[part] ?? "")"])
    let (value, notes) = PrefsValue.location(changed).reconciled(with: .location(Self.cambridge))
    guard case .location(let location) = value else {
      Issue.record("not a location")
      return
    }
    #expect(location.latitude == nil && location.longitude == nil)
    #expect(!location.hasCoordinates)
    #expect(notes.first?.contains("coordinates were cleared") == true)
  }

  @Test("coordinates given with the new address, or an unchanged address, are kept")
  func keptWhenTheyFollow() throws {
    let (moved, _) = try Self.cambridge.applying(["zip=90210", "latitude=34.1", "longitude=-118.4"])
    #expect(PrefsValue.location(moved).reconciled(with: .location(Self.cambridge)).value == .location(moved))
    let (same, _) = try Self.cambridge.applying(["latitude=42.4"])
    #expect(PrefsValue.location(same).reconciled(with: .location(Self.cambridge)).notes.isEmpty)
    let none = HomeLocation(city: "Cambridge")
    let (noCoordinates, _) = try none.applying(["city=Boston"])
    #expect(PrefsValue.location(noCoordinates).reconciled(with: .location(none)).notes.isEmpty)
    let notification = PrefsValue.notifications(NotificationSettings())
    #expect(notification.reconciled(with: notification).value == notification)
  }
}
