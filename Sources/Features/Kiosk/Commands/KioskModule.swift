import ArgumentParser
import DeckConfig
import DeckCore

/// `deck kiosk`.
public enum KioskModule: DeckModule {
  public static let name = "kiosk"
  public static let summary = "Pair and run the in-store review kiosk."
  public static let services: [Service] = [.kiosk]
  public static var commands: [any ParsableCommand.Type] { [KioskCommand.self] }
}

struct KioskCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "kiosk", abstract: KioskModule.summary)
}
