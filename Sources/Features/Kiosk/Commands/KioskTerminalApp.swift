import DeckCore
import DeckSupport
import FoundationEssentials
import KioskRules

/// `deck kiosk run` on a terminal: the spec's screens full-screen, driven by keys, the
/// state machine and its timers. Keys: the pairing field and Enter; on idle, Enter polls now
/// and Ctrl-R (hidden, the logo's long press) opens the settings with Re-pair; 1-5 or the
/// arrows and Enter rate, Esc cancels; y/n (or ←/→ and Enter) answer; Enter is Done.
/// Ctrl-C stops the kiosk.
final class TerminalKiosk: FullScreenApp {
  enum Event: Sendable {
    case tick
    case result(KioskRequest, Result<KioskResponse, DeckError>)
  }

  enum Outcome {
    case quit, interrupted
  }

  let context: DeckContext
  let service: KioskService
  let file: KioskStateFile
  let qrPNG: String?
  var state: KioskState
  var interface = KioskScreenView.Interface()
  /// Whether pairing on the pairing screen is saved (not when the run was given --store).
  var savesPairing: Bool
  private var qrCode: (url: String, code: QRCode)?
  private var events: FullScreenEvents<Event>?
  private var previousScreen: KioskScreen?

  init(
    context: DeckContext, service: KioskService, file: KioskStateFile, timings: KioskTimings, storeId: String?,
    qrPNG: String?
  ) throws {
    self.context = context
    self.service = service
    self.file = file
    self.qrPNG = qrPNG
    if let storeId {
      state = KioskState(storePublicId: nil, timings: timings)
      interface.pairingText = storeId
      savesPairing = false
    } else {
      state = KioskState(storePublicId: try file.load().storePublicId, timings: timings)
      savesPairing = true
    }
  }

  func run() async throws -> Outcome {
    try await FullScreenLoop.run(self, purpose: "The terminal kiosk")
  }

  func begin(_ events: FullScreenEvents<Event>) {
    self.events = events
    // The state machine's timers, until the kiosk stops.
    Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(100))
        guard events.post(.tick) else { return }
      }
    }
    if !interface.pairingText.isEmpty, let request = try? state.pair(storeId: interface.pairingText) {
      start(request)
    }
  }

  func handle(event: Event) -> Outcome? {
    switch event {
    case .tick:
      interface.spinnerFrame += 1
      if let request = state.tick(at: Date()) { start(request) }
    case .result(let request, let result):
      receive(request, result)
    }
    return nil
  }

  func interrupted() -> Outcome? { .interrupted }
  func inputEnded() -> Outcome { .quit }
  func cancelled() -> Outcome { .interrupted }

  // MARK: Events

  func handle(_ key: Key) -> Outcome? {
    if key == .control("c") { return .interrupted }
    if interface.showingSettings { return settingsKey(key) }
    switch state.currentScreen {
    case .pairing: pairingKey(key)
    case .idle: idleKey(key)
    case .rating: ratingKey(key)
    case .consent: consentKey(key)
    case .handoff:
      switch key {
      case .enter, .character("d"), .character("D"), .character(" "):
        if let request = try? state.done() { start(request) }
      default:
        break
      }
    case .thankYou:
      break
    }
    return nil
  }

  /// The settings (Ctrl-R on idle): Re-pair, Quit, or close them.
  private func settingsKey(_ key: Key) -> Outcome? {
    switch key {
    case .character("r"), .character("R"):
      interface.showingSettings = false
      try? state.rePair()
      interface.pairingText = ""
      savesPairing = true
      try? file.save(state)
    case .character("q"), .character("Q"):
      return .quit
    case .escape, .character("c"), .character("C"), .enter:
      interface.showingSettings = false
    default:
      break
    }
    return nil
  }

  /// The pairing field: typing, editing, and Enter to pair.
  private func pairingKey(_ key: Key) {
    switch key {
    case .character(let character) where !state.isBusy:
      if interface.pairingText.count < 64, !character.isNewline { interface.pairingText.append(character) }
    case .backspace where !state.isBusy:
      if !interface.pairingText.isEmpty { interface.pairingText.removeLast() }
    case .control("u"), .escape:
      if !state.isBusy { interface.pairingText = "" }
    case .enter:
      if let request = try? state.pair(storeId: interface.pairingText) { start(request) }
    default:
      break
    }
  }

  /// Idle: Enter polls now, Ctrl-R opens the settings.
  private func idleKey(_ key: Key) {
    switch key {
    case .control("r"):
      interface.showingSettings = true
    case .enter, .character(" "):
      if let request = try? state.poll() { start(request) }
    default:
      break
    }
  }

  /// The rating: 1-5 or the arrows, Enter submits, Esc cancels.
  private func ratingKey(_ key: Key) {
    switch key {
    case .character(let character) where ("1"..."5").contains(character):
      try? state.selectRating(Int(String(character)) ?? 0)
    case .left, .down:
      try? state.adjustRating(by: -1)
    case .right, .up:
      try? state.adjustRating(by: 1)
    case .enter:
      if let request = try? state.submitRating() { start(request) }
    case .escape, .character("c"), .character("C"):
      try? state.cancel()
    default:
      break
    }
  }

  /// The consent: y/n, or ←/→ (Tab) to choose and Enter to answer.
  private func consentKey(_ key: Key) {
    switch key {
    case .character("y"), .character("Y"):
      answer(yes: true)
    case .character("n"), .character("N"):
      answer(yes: false)
    case .left:
      interface.consentYes = false
    case .right:
      interface.consentYes = true
    case .tab:
      interface.consentYes = !(interface.consentYes ?? false)
    case .enter:
      if let yes = interface.consentYes { answer(yes: yes) }
    default:
      break
    }
  }

  func answer(yes: Bool) {
    interface.consentYes = yes
    if let request = try? (yes ? state.approve() : state.decline()) { start(request) }
  }

  /// Performs a request in the background; its result comes back as an event.
  func start(_ request: KioskRequest) {
    let service = service
    let events = events
    Task {
      let result: Result<KioskResponse, DeckError>
      do {
        result = .success(try await service.perform(request))
      } catch {
        result = .failure(ErrorPresenter.deckError(for: error))
      }
      events?.post(.result(request, result))
    }
  }

  func receive(_ request: KioskRequest, _ result: Result<KioskResponse, DeckError>) {
    guard state.pending == request else { return }
    switch result {
    case .success(let response): state.succeed(response, at: Date())
    case .failure(let error): state.fail(error.message, at: Date())
    }
    if case .validateStore = request, state.currentScreen == .idle, savesPairing {
      do {
        try file.save(state)
      } catch {
        state.fail(
          "Paired, but the pairing could not be saved: \(ErrorPresenter.deckError(for: error).message)", at: Date())
      }
    }
  }

  /// Resets the screen-local UI when the screen changes; prepares the handoff's QR code.
  func screenChanged() {
    guard state.currentScreen != previousScreen else { return }
    previousScreen = state.currentScreen
    interface.consentYes = nil
    interface.showingSettings = false
    if state.currentScreen == .pairing, !state.isBusy, state.errorMessage == nil { interface.pairingText = "" }
    if state.currentScreen == .handoff, let url = state.handoffURL(baseURL: service.baseURL), qrCode?.url != url {
      do {
        let code = try QRCode(url)
        qrCode = (url, code)
        if let qrPNG { try code.writePNG(to: qrPNG) }
      } catch {
        qrCode = nil
      }
    }
  }

  /// The screen; first the screen-local resets of a screen change (`screenChanged`).
  func frame(columns: Int, rows: Int) -> [String] {
    screenChanged()
    let url = state.currentScreen == .handoff ? state.handoffURL(baseURL: service.baseURL) : nil
    let view = KioskScreenView(
      state: state, interface: interface, columns: columns, rows: rows, now: Date(), handoffURL: url,
      qrCode: url != nil && qrCode?.url == url ? qrCode?.code : nil, output: context.output)
    return view.frame()
  }
}
