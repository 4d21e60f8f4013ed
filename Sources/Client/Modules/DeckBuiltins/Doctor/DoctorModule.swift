import ArgumentParser
import DeckCore

/// `deck doctor`: is deck set up right here, and can it reach its environment?
public enum DoctorModule: DeckModule {
  public static let name = "doctor"
  public static var commands: [any ParsableCommand.Type] { [DoctorCommand.self] }
}
