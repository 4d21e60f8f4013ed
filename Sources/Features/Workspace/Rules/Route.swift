import FoundationEssentials

/// Where the user goes after auth: the single route enum of section 4 ("Suggested app
/// routing"), mapped from `GET /api/access/redirect`'s `redirect` and `path`.
public enum Route: Sendable, Equatable {
  case login
  case join(token: String?)
  case onboarding
  case subscribe
  /// The subscribe screen with member-inactive copy: `subscribe` with
  /// `reason=member-inactive` in the path, or `contact-owner`.
  case subscribeMemberInactive
  case dashboard

  /// The route's name as deck prints it.
  public var name: String {
    switch self {
    case .login: "login"
    case .join: "join"
    case .onboarding: "onboarding"
    case .subscribe: "subscribe"
    case .subscribeMemberInactive: "subscribe (member-inactive)"
    case .dashboard: "dashboard"
    }
  }

  /// The route of a redirect response (section 2, "Where iOS should branch"). Unknown
  /// redirect values fall back to the path.
  public init?(redirect: String, path: String) {
    switch redirect {
    case "login": self = .login
    case "join": self = .join(token: InviteLink.token(in: path))
    case "onboarding": self = .onboarding
    case "subscribe":
      self = Route.pathHasMemberInactiveReason(path) ? .subscribeMemberInactive : .subscribe
    case "contact-owner": self = .subscribeMemberInactive
    case "dashboard": self = .dashboard
    default:
      guard let route = Route(path: path) else { return nil }
      self = route
    }
  }

  /// The route of a path alone (`/subscribe`, `/home`, …), as the onboarding and accept
  /// responses give it.
  public init?(path: String) {
    let components = URLComponents(string: path)
    let bare = (components?.path ?? path).lowercased()
    switch bare {
    case "/login": self = .login
    case "/join": self = .join(token: InviteLink.token(in: path))
    case "/onboarding": self = .onboarding
    case "/subscribe": self = Route.pathHasMemberInactiveReason(path) ? .subscribeMemberInactive : .subscribe
    case "/contact-owner": self = .subscribeMemberInactive
    case "/home", "/dashboard", "/": self = .dashboard
    default: return nil
    }
  }

  static func pathHasMemberInactiveReason(_ path: String) -> Bool {
    URLComponents(string: path)?.queryItems?.contains { $0.name == "reason" && $0.value == "member-inactive" } ?? false
  }
}

/// A redirect the post-auth gate answers (`GET /api/access/redirect`).
public struct GateRedirect: Sendable, Equatable {
  /// `login`, `join`, `onboarding`, `subscribe`, `contact-owner` or `dashboard`.
  public var redirect: String
  public var path: String

  public init(redirect: String, path: String) {
    self.redirect = redirect
    self.path = path
  }

  public static let login = GateRedirect(redirect: "login", path: "/login")
  public static let onboarding = GateRedirect(redirect: "onboarding", path: "/onboarding")
  public static let subscribe = GateRedirect(redirect: "subscribe", path: "/subscribe")
  public static let subscribeMemberInactive = GateRedirect(
    redirect: "subscribe", path: "/subscribe?reason=member-inactive")
  public static let dashboard = GateRedirect(redirect: "dashboard", path: "/home")

  public static func join(token: String) -> GateRedirect {
    GateRedirect(redirect: "join", path: InviteLink.joinPath(token: token))
  }
}

extension WorkspaceRules {
  /// The post-auth gate (section 2's flow diagram, section 6): an invite token wins; then no
  /// membership or an owner who has not finished onboarding goes to onboarding; then access
  /// decides between the dashboard and subscribe (member-inactive for members and admins).
  public static func gate(inviteToken: String?, membership: PrimaryMembership?, now: Date) -> GateRedirect {
    if let token = inviteToken.map(EmailRules.trim), !token.isEmpty { return .join(token: token) }
    guard let membership else { return .onboarding }
    if membership.role == .owner && !membership.onboardingCompleted { return .onboarding }
    if AccessState.compute(membership, now: now).hasAccess { return .dashboard }
    return membership.role == .owner ? .subscribe : .subscribeMemberInactive
  }
}
