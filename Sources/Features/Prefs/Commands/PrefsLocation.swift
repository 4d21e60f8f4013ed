import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import PrefsRules

struct PrefsLocation: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "location", abstract: "Set the home location, and look up its coordinates.",
    discussion: HelpText.discussion(exits: LocationSet.exits), subcommands: [LocationSet.self])
}

struct LocationSet: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "set", _superCommandName: "deck",
    abstract: "Set the home address; --geocode fills latitude and longitude.",
    discussion: HelpText.discussion(
      """
      Changes the fields given (an empty value clears one); the state is upper-cased. --geocode
      looks the address up with the geocoder service (the US Census Bureau's in real
      environments, a ZIP-centroid table in the sandbox; no token is sent to it), fills latitude
      and longitude and says "coordinates ready" (the form's ✓). When the geocoder finds
      nothing, nothing is saved. A ZIP code in another state than the address's is refused
      (exit 64, nothing saved) unless --force. Without --geocode, a changed address clears the
      old address's coordinates (here, with set and with edit), so they are never shown as
      ready for an address they do not belong to.

      $ deck prefs location set --address "77 Massachusetts Ave" --city Cambridge --state ma --zip 02139 --geocode
      """,
      exits: exits))

  static let exits: [ExitDoc] = [
    .failure("the geocoder found no match (nothing was saved)"),
    .usage("a bad value, or a ZIP code in another state without --force (nothing was saved)"),
    .rejected(), .unavailable("the recruiting service or the geocoder could not be reached"), .unauthorized(),
  ]

  @OptionGroup var global: GlobalOptions

  @Option(help: "The street address.")
  var address: String?

  @Option(help: "The city.")
  var city: String?

  @Option(help: "The 2-letter state code.", completion: .list(USStates.codes))
  var state: String?

  @Option(help: "The ZIP code (12345 or 12345-6789).")
  var zip: String?

  @Flag(help: "Look up the coordinates of the address and store them.")
  var geocode = false

  @Flag(help: "With --geocode: save even when the ZIP code is in another state than --state.")
  var force = false

  func validate() throws {
    guard address != nil || city != nil || state != nil || zip != nil || geocode else {
      throw ValidationError("Give --address, --city, --state or --zip, or --geocode to look up the stored address.")
    }
  }

  var assignments: [String] {
    [("address", address), ("city", city), ("state", state), ("zip", zip)].compactMap { key, value in
      value.map { "\(key)=\($0)" }
    }
  }

  func run(_ context: DeckContext) async throws {
    let assignments = assignments
    do { _ = try PrefsValue.defaults(for: .location).applying(assignments) } catch {
      throw PrefsProblem.invalid(error, "location")
    }
    let update = PrefsUpdate(context: context, category: .location)
    let fetched = try await update.service.fetch(.location)
    if fetched.readOnly { throw PrefsService.readOnly(email: nil) }
    var location: HomeLocation
    do {
      guard case .location(let current) = try fetched.value.applying(assignments).value else { return }
      location = current
    } catch {
      throw PrefsProblem.invalid(error, "location")
    }
    var match: GeocoderService.Match?
    if geocode {
      let line = GeocoderService.oneLine(location)
      guard !line.isEmpty else {
        throw DeckError.usage("There is no address to look up.", hint: "Give --address, --city, --state and --zip.")
      }
      guard line.unicodeScalars.count <= GeocoderService.maximumAddressLength else {
        throw DeckError.usage(
          "The address is \(line.unicodeScalars.count) characters; the geocoder takes at most \(GeocoderService.maximumAddressLength)."
        )
      }
      guard let found = try await GeocoderService(context: context).locate(line) else {
        throw DeckError.failure(
          "The geocoder found no match for \"\(line)\"; nothing was saved.",
          hint: "Check the address and ZIP code, or set the coordinates: deck prefs set location latitude=… longitude=…"
        )
      }
      match = found
      location.latitude = found.latitude
      location.longitude = found.longitude
      if let state = location.state, found.state != state {
        let problem =
          "ZIP code \(found.zip) is in \(found.state), not \(state) (the geocoder matched \(found.matchedAddress))"
        guard force else {
          throw DeckError.usage(
            "\(problem); nothing was saved.",
            hint: "Correct --state or --zip, or add --force to save the address as it is.")
        }
        context.output.info("warning: \(problem); saved anyway (--force).")
      }
    }
    let located = match
    let value: PrefsValue
    do { value = try PrefsValue.location(location).validated() } catch { throw PrefsProblem.invalid(error, "location") }
    try await update.save(
      value, over: fetched, reconciling: located == nil,
      after: { value in
        guard case .location(let saved) = value, saved.hasCoordinates, let located else { return }
        context.output.info(
          "✓ Coordinates ready: \(located.latitude), \(located.longitude) (\(located.matchedAddress))")
      })
  }
}
