import FoundationEssentials

/// A member's role in a workspace (section 1, `workspace_members.role`).
public enum WorkspaceRole: String, CaseIterable, Sendable, Codable {
  case owner, admin, member
}

/// `workspaces.subscription_status` (section 1, "Access gating").
public enum SubscriptionStatus: String, CaseIterable, Sendable, Codable {
  case inactive, trialing, active
  case pastDue = "past_due"

  /// The backend's rule: `active`, or `trialing` with no end or an end still in the future.
  public func grantsAccess(trialEndsAt: Date?, now: Date) -> Bool {
    switch self {
    case .active: true
    case .trialing: trialEndsAt.map { $0 > now } ?? true
    case .inactive, .pastDue: false
    }
  }
}

/// Why `hasAccess` is false (section 3, `GET /api/access/state`).
public enum AccessReason: String, CaseIterable, Sendable, Codable {
  case memberInactive = "member-inactive"
  case noWorkspace = "no_workspace"
}

/// What the access rules need to know about the user's primary workspace (the first
/// membership by `created_at`).
public struct PrimaryMembership: Sendable, Equatable {
  public var role: WorkspaceRole
  public var workspaceName: String
  public var subscriptionStatus: SubscriptionStatus
  public var trialEndsAt: Date?
  public var onboardingCompleted: Bool

  public init(
    role: WorkspaceRole, workspaceName: String, subscriptionStatus: SubscriptionStatus, trialEndsAt: Date? = nil,
    onboardingCompleted: Bool
  ) {
    self.role = role
    self.workspaceName = workspaceName
    self.subscriptionStatus = subscriptionStatus
    self.trialEndsAt = trialEndsAt
    self.onboardingCompleted = onboardingCompleted
  }

  /// Whether the workspace's subscription (or trial) is in force.
  public func subscriptionActive(now: Date) -> Bool {
    subscriptionStatus.grantsAccess(trialEndsAt: trialEndsAt, now: now)
  }
}

/// The body of `GET /api/access/state`.
public struct AccessState: Sendable, Equatable {
  public var role: WorkspaceRole?
  public var workspaceName: String?
  public var hasAccess: Bool
  public var reason: AccessReason?

  public init(role: WorkspaceRole?, workspaceName: String?, hasAccess: Bool, reason: AccessReason? = nil) {
    self.role = role
    self.workspaceName = workspaceName
    self.hasAccess = hasAccess
    self.reason = reason
  }

  /// Section 1, "Access gating", and section 6:
  /// - no membership: `role` null, no access, reason `no_workspace`;
  /// - owner: access needs onboarding completed and an active subscription or valid trial;
  ///   no reason when denied (the owner goes to onboarding or subscribe);
  /// - member or admin: access needs an active subscription or valid trial; reason
  ///   `member-inactive` when denied.
  public static func compute(_ membership: PrimaryMembership?, now: Date) -> AccessState {
    guard let membership else {
      return AccessState(role: nil, workspaceName: nil, hasAccess: false, reason: .noWorkspace)
    }
    let subscribed = membership.subscriptionActive(now: now)
    switch membership.role {
    case .owner:
      return AccessState(
        role: .owner, workspaceName: membership.workspaceName,
        hasAccess: subscribed && membership.onboardingCompleted)
    case .admin, .member:
      return AccessState(
        role: membership.role, workspaceName: membership.workspaceName, hasAccess: subscribed,
        reason: subscribed ? nil : .memberInactive)
    }
  }
}

/// The 400 "No workspace found" of onboarding and checkout (sections 3 and 6): the account owns
/// no workspace, so it has nothing to onboard or pay for. The spec's advice is onboarding or
/// support; onboarding is what failed, so the hint names support and what a member can check.
public enum NoOwnerWorkspace {
  /// Whether a server's error message is this one.
  public static func matches(_ message: String) -> Bool {
    message.lowercased().contains("no workspace found")
  }

  public static let hint =
    "This account owns no workspace (sign-up normally creates one): ask support to create it. "
    + "If you joined someone else's workspace, its owner onboards and pays; see yours with: deck workspace access"
}
