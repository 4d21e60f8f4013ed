import DeckSupport
import Foundation
import Hummingbird
internal import SQLKit
import SandboxAdminAPI

/// The sandbox operator endpoints under /__sandbox/v1.
struct AdminHandlers: SandboxAdminAPI.APIProtocol {
  let state: SandboxState

  static let maximumSeed = 1_000_000
  static let maximumDelay = 600_000

  func info(_ input: SandboxAdminAPI.Operations.info.Input) async throws -> SandboxAdminAPI.Operations.info.Output {
    .ok(.init(body: .json(try await currentInfo())))
  }

  /// The proof that this server holds the admin token (``SandboxProof``); needs no token.
  func proof(_ input: SandboxAdminAPI.Operations.proof.Input) async throws
    -> SandboxAdminAPI.Operations.proof.Output
  {
    guard SandboxProof.isNonce(input.query.nonce) else {
      return .badRequest(
        .init(body: .json(.init(error: "The nonce must be 32 to 128 lowercase hex digits (a fresh one each time)."))))
    }
    return .ok(
      .init(body: .json(.init(proof: SandboxProof.answer(adminToken: state.adminToken, nonce: input.query.nonce)))))
  }

  func reset(_ input: SandboxAdminAPI.Operations.reset.Input) async throws
    -> SandboxAdminAPI.Operations.reset.Output
  {
    let features = state.options.features
    try await state.database.write { db in
      // The data goes, the fault rules and the delay with it (they are in `meta`); only the ids
      // of the rules continue, so that an id from before the reset never names a new rule.
      let nextID = try await FaultSettings.nextRuleID(db)
      try await SandboxSeed.reset(db, features: features)
      if let nextID { try await FaultSettings.save(FaultRuleSet(nextID: nextID), db) }
    }
    await SandboxSeed.compact(state.database, vacuum: true)
    return .ok(.init(body: .json(try await currentInfo())))
  }

  func seed(_ input: SandboxAdminAPI.Operations.seed.Input) async throws -> SandboxAdminAPI.Operations.seed.Output {
    guard case .json(let request) = input.body else { throw SandboxAPIError.internalError }
    let features = state.options.features
    let generators = features.reduce(into: [String: SyntheticData]()) {
      $0.merge($1.syntheticData) { first, _ in first }
    }
    let wanted = request.synthetic?.additionalProperties ?? [:]
    for (kind, count) in wanted.sorted(by: { $0.key < $1.key }) {
      guard generators[kind] != nil else {
        let known = generators.keys.sorted().joined(separator: ", ")
        return .badRequest(.init(body: .json(.init(error: "no synthetic data of kind \"\(kind)\"; known: \(known)"))))
      }
      guard (0...Self.maximumSeed).contains(count) else {
        return .badRequest(.init(body: .json(.init(error: "\(kind) must be between 0 and \(Self.maximumSeed)"))))
      }
    }
    try await state.database.write { db in
      try await SandboxSeed.seedDefaults(db, features: features)
      for (kind, count) in wanted.sorted(by: { $0.key < $1.key }) { try await generators[kind]?(db, count) }
    }
    if wanted.values.reduce(0, +) >= 10_000 { await SandboxSeed.compact(state.database, vacuum: false) }
    return .ok(.init(body: .json(try await currentInfo())))
  }

  func getDelay(_ input: SandboxAdminAPI.Operations.getDelay.Input) async throws
    -> SandboxAdminAPI.Operations.getDelay.Output
  {
    let scope = RequestScope.current
    return .ok(
      .init(
        body: .json(.init(milliseconds: try await state.database.read { try await FaultSettings.delay(in: scope, $0) }))
      )
    )
  }

  func setDelay(_ input: SandboxAdminAPI.Operations.setDelay.Input) async throws
    -> SandboxAdminAPI.Operations.setDelay.Output
  {
    guard case .json(let delay) = input.body else { throw SandboxAPIError.internalError }
    guard (0...Self.maximumDelay).contains(delay.milliseconds) else {
      throw SandboxAPIError.simple(.badRequest, "milliseconds must be between 0 and \(Self.maximumDelay)")
    }
    let milliseconds = delay.milliseconds
    let scope = RequestScope.current
    try await state.database.write { db in try await FaultSettings.setDelay(milliseconds, in: scope, db) }
    return .ok(.init(body: .json(.init(milliseconds: delay.milliseconds))))
  }

  // MARK: Faults

  typealias Schemas = SandboxAdminAPI.Components.Schemas

  func listFaults(_ input: SandboxAdminAPI.Operations.listFaults.Input) async throws
    -> SandboxAdminAPI.Operations.listFaults.Output
  {
    let stored = try await state.database.read(FaultSettings.rules)
    let scope = RequestScope.current
    let rules = (input.query.all == true ? stored.allWithUsedUp : stored.all).filter {
      FaultRuleSet.visible($0, in: scope)
    }
    return .ok(.init(body: .json(rules.map(Self.view))))
  }

  func addFault(_ input: SandboxAdminAPI.Operations.addFault.Input) async throws
    -> SandboxAdminAPI.Operations.addFault.Output
  {
    guard case .json(let request) = input.body else { throw SandboxAPIError.internalError }
    @Sendable func badRequest(_ message: String) -> SandboxAdminAPI.Operations.addFault.Output {
      .badRequest(.init(body: .json(.init(error: message))))
    }
    guard request.path.hasPrefix("/"), request.path.utf8.count <= 1024 else {
      return badRequest("path must start with / and be at most 1024 bytes")
    }
    if let status = request.status, !(100...599).contains(status) {
      return badRequest("status must be between 100 and 599")
    }
    if let retryAfter = request.retryAfter, !(0...86_400).contains(retryAfter) {
      return badRequest("retryAfter must be between 0 and 86400 seconds")
    }
    if let latency = request.latencyMs, !(0...Self.maximumDelay).contains(latency) {
      return badRequest("latencyMs must be between 0 and \(Self.maximumDelay)")
    }
    if let times = request.times, !(1...1_000_000).contains(times) {
      return badRequest("times must be between 1 and 1000000")
    }
    if let probability = request.probability, !(probability > 0 && probability <= 1) {
      return badRequest("probability must be greater than 0 and at most 1")
    }
    guard let action = FaultRule.Action(rawValue: request.action.rawValue) else {
      return badRequest("unknown action")
    }
    // The contract's lengths, in code points as JSON Schema counts them. A shape change without
    // a field is accepted as the contract allows it, and changes nothing (the CLI asks for one).
    if let field = request.field, !(1...200).contains(field.unicodeScalars.count) {
      return badRequest("field must be 1 to 200 characters")
    }
    if let value = request.value, value.unicodeScalars.count > 200 {
      return badRequest("value must be at most 200 characters")
    }
    let method = request.method.flatMap { $0 == .ANY ? nil : $0.rawValue }
    let rule = FaultRule(
      id: 0, method: method, path: request.path, action: action, status: request.status ?? 503,
      field: action.changesShape ? request.field : nil, value: action == .enumValue ? request.value : nil,
      retryAfter: request.retryAfter,
      latencyMilliseconds: request.latencyMs ?? (action == .latency ? 1000 : 0), remaining: request.times,
      probability: request.probability ?? 1, scope: RequestScope.current)
    let added = try await state.database.write { db -> FaultRule? in
      var rules = try await FaultSettings.rules(db)
      guard let added = rules.add(rule) else { return nil }
      try await FaultSettings.save(rules, db)
      return added
    }
    guard let added else {
      return .conflict(
        .init(
          body: .json(.init(error: "There are already \(FaultRuleSet.maximumRules) fault rules; clear some first."))))
    }
    return .created(.init(body: .json(Self.view(added))))
  }

  func clearFaults(_ input: SandboxAdminAPI.Operations.clearFaults.Input) async throws
    -> SandboxAdminAPI.Operations.clearFaults.Output
  {
    guard case .json(let request) = input.body else { throw SandboxAPIError.internalError }
    let id = request.id
    let scope = RequestScope.current
    let cleared = try await state.database.write { db in
      var rules = try await FaultSettings.rules(db)
      let before = rules
      let cleared = rules.clear(id: id, scope: scope)
      if rules != before { try await FaultSettings.save(rules, db) }
      return cleared
    }
    if let id = request.id, cleared == 0 {
      let whose = scope == nil ? "" : " in this QA run"
      return .notFound(.init(body: .json(.init(error: "No fault rule has id \(id)\(whose)."))))
    }
    return .ok(.init(body: .json(.init(cleared: cleared))))
  }

  static func view(_ rule: FaultRule) -> Schemas.Fault {
    .init(
      id: rule.id, method: rule.method.flatMap(Schemas.FaultMethod.init(rawValue:)) ?? .ANY, path: rule.path,
      action: Schemas.FaultAction(rawValue: rule.action.rawValue) ?? .status, field: rule.field, value: rule.value,
      status: rule.action == .status ? rule.status : nil, retryAfter: rule.retryAfter,
      latencyMs: rule.latencyMilliseconds, remaining: rule.remaining, probability: rule.probability, fired: rule.fired,
      scope: rule.scope)
  }

  private func currentInfo() async throws -> SandboxAdminAPI.Components.Schemas.Info {
    let state = self.state
    let counts = try await state.database.read { db in
      var counts = ["users": try await db.fetchValue(Int.self, "SELECT count(*) FROM users") ?? 0]
      for feature in state.options.features {
        counts.merge(try await feature.counts(db)) { first, _ in first }
      }
      return counts
    }
    let anonKey = state.anonKey
    let runs = state.qaRuns.inProgress().map {
      Schemas.QARun(
        id: $0.id, scenarios: $0.scenarios.count, requests: $0.requests, startedAt: $0.startedAt,
        lastRequestAt: $0.lastSeenAt)
    }
    return .init(
      sandbox: true, version: "1", counts: .init(additionalProperties: counts),
      database: state.database.location.description,
      anon_key: anonKey, runs: runs)
  }

  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    .simple(status, status == .badRequest ? "invalid request body" : "invalid request")
  }
}
