import Foundation
import GRDB
import Hummingbird
import SandboxAdminAPI

/// The sandbox operator endpoints under /__sandbox/v1.
struct AdminHandlers: SandboxAdminAPI.APIProtocol {
  let state: SandboxState

  static let maximumSeed = 1_000_000
  static let maximumDelay = 600_000

  func info(_ input: SandboxAdminAPI.Operations.info.Input) async throws -> SandboxAdminAPI.Operations.info.Output {
    .ok(.init(body: .json(try await currentInfo())))
  }

  func reset(_ input: SandboxAdminAPI.Operations.reset.Input) async throws
    -> SandboxAdminAPI.Operations.reset.Output
  {
    try await state.pool.write { db in try SandboxSeed.reset(db) }
    await SandboxSeed.compact(state.pool, vacuum: true)
    state.delayMilliseconds = 0
    return .ok(.init(body: .json(try await currentInfo())))
  }

  func seed(_ input: SandboxAdminAPI.Operations.seed.Input) async throws -> SandboxAdminAPI.Operations.seed.Output {
    guard case .json(let request) = input.body else { throw SandboxAPIError.internalError }
    let count = request.brokerages ?? 0
    guard (0...Self.maximumSeed).contains(count) else {
      return .badRequest(.init(body: .json(.init(error: "brokerages must be between 0 and \(Self.maximumSeed)"))))
    }
    try await state.pool.write { db in
      try SandboxSeed.seedDefaults(db)
      try SandboxSeed.addSyntheticBrokerages(count, db)
    }
    if count >= 10_000 { await SandboxSeed.compact(state.pool, vacuum: false) }
    return .ok(.init(body: .json(try await currentInfo())))
  }

  func setDelay(_ input: SandboxAdminAPI.Operations.setDelay.Input) async throws
    -> SandboxAdminAPI.Operations.setDelay.Output
  {
    guard case .json(let delay) = input.body else { throw SandboxAPIError.internalError }
    guard (0...Self.maximumDelay).contains(delay.milliseconds) else {
      throw SandboxAPIError.simple(.badRequest, "milliseconds must be between 0 and \(Self.maximumDelay)")
    }
    state.delayMilliseconds = delay.milliseconds
    return .ok(.init(body: .json(.init(milliseconds: delay.milliseconds))))
  }

  private func currentInfo() async throws -> SandboxAdminAPI.Components.Schemas.Info {
    let state = self.state
    let (brokerages, users, anonKey) = try await state.pool.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT count(*) FROM brokerages") ?? 0,
        try Int.fetchOne(db, sql: "SELECT count(*) FROM users") ?? 0,
        try state.signer(db).anonKey()
      )
    }
    return .init(
      sandbox: true, version: "1", brokerages: brokerages, users: users, database: state.options.databasePath,
      anon_key: anonKey)
  }

  @Sendable static func requestError(operationID: String, request: HTTPRequest, status: HTTPResponse.Status)
    -> SandboxAPIError
  {
    .simple(status, status == .badRequest ? "invalid request body" : "invalid request")
  }
}
