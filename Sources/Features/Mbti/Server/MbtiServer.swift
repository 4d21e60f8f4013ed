import Foundation
package import SQLKit
import SandboxKit

/// The MBTI quiz's part of the sandbox (mbti-quiz.md): the nudge service's questions, scoring
/// and events (the NudgeAPI contract), and its operator endpoint for the stored events.
package enum MbtiServer: SandboxFeature {
  package static let name = "mbti"

  package static func registerRoutes(on routes: SandboxRoutes) throws {
    try MbtiHandlers(state: routes.state).registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.root, configuration: SandboxRoutes.configuration,
      middlewares: [
        ErrorResponseMiddleware(requestError: MbtiHandlers.requestError),
        RejectNullsMiddleware(
          operations: ["submitAnswers": ["user_id", "answers"], "postEvent": ["user_id", "event_type", "details"]],
          error: { MbtiHandlers.requestError(operationID: $0, request: $1, status: .badRequest) }),
      ])
    try MbtiAdminHandlers(state: routes.state).registerHandlers(
      on: routes.transport, serverURL: SandboxRoutes.operatorURL(Self.self), configuration: SandboxRoutes.configuration,
      middlewares: [ErrorResponseMiddleware(requestError: MbtiAdminHandlers.requestError)])
  }

  package static func counts(_ db: any SQLDatabase) async throws -> [String: Int] {
    ["mbti events": try await db.fetchValue(Int.self, "SELECT count(*) FROM mbti_events") ?? 0]
  }

  /// The nudge service's tables: the analytics events the quiz emits and the results it scored.
  package static func registerMigrations(in migrations: inout SchemaMigrations) {
    migrations.add(
      "v1-mbti",
      script: """
        CREATE TABLE mbti_events (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          user_id TEXT NOT NULL,
          event_type TEXT NOT NULL,
          details TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE INDEX mbti_events_user ON mbti_events(user_id, id);
        CREATE TABLE mbti_results (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          user_id TEXT NOT NULL,
          profile TEXT NOT NULL,
          scores TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE INDEX mbti_results_user ON mbti_results(user_id, id);
        """)
    // Events sent with an Idempotency-Key are recorded once per user and key.
    migrations.add(
      "v2-mbti-event-keys",
      script: """
        ALTER TABLE mbti_events ADD COLUMN idempotency_key TEXT;
        CREATE UNIQUE INDEX mbti_events_key ON mbti_events(user_id, idempotency_key)
          WHERE idempotency_key IS NOT NULL;
        """)
  }
}
