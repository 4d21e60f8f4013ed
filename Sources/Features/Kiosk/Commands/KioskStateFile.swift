import DeckCore
import DeckSupport
import FoundationEssentials
import KioskRules

/// The kiosk's state between commands, one file per environment:
/// `$XDG_STATE_HOME/deck/kiosk/<environment>.json`, written atomically.
struct KioskStateFile: Sendable {
  let path: String
  let environment: String

  init(context: DeckContext) throws {
    environment = try context.environment().name
    path = "\(context.paths.stateDirectory)/kiosk/\(environment).json"
  }

  var exists: Bool { FileManager.default.fileExists(atPath: path) }

  /// The saved state, or launch state (pairing) when there is none.
  func load(timings: KioskTimings = .standard) throws -> KioskState {
    guard let data = FileManager.default.contents(atPath: path) else {
      return KioskState(storePublicId: nil, timings: timings)
    }
    do {
      return try DeckJSON.decoder.decode(KioskState.self, from: data).normalized(timings: timings)
    } catch {
      throw DeckError.configuration(
        "Cannot read the kiosk state \(path): \(ErrorText.describe(error))",
        hint: "Remove the file to start over (the kiosk will need pairing again).")
    }
  }

  func save(_ state: KioskState) throws {
    try AtomicFile.ensureDirectory(PathText.parent(path))
    try AtomicFile.write(try DeckJSON.encoder.encode(state), to: path, mode: 0o600)
  }
}
