import BrokerageRules

/// Solo or team onboarding (section 4, `UseCase`).
public enum UseCase: String, CaseIterable, Sendable, Codable {
  case solo, team
}

/// The onboarding values as given on the command line, unchecked.
public struct OnboardingFlags: Sendable, Equatable {
  public var firstName: String?
  public var lastName: String?
  public var workspaceName: String?
  public var industry: String?
  public var brokerage: String?
  public var brokerageID: String?
  public var useCase: UseCase?
  public var invites: [String]
  public var referralCode: String?

  public init(
    firstName: String? = nil, lastName: String? = nil, workspaceName: String? = nil, industry: String? = nil,
    brokerage: String? = nil, brokerageID: String? = nil, useCase: UseCase? = nil, invites: [String] = [],
    referralCode: String? = nil
  ) {
    self.firstName = firstName
    self.lastName = lastName
    self.workspaceName = workspaceName
    self.industry = industry
    self.brokerage = brokerage
    self.brokerageID = brokerageID
    self.useCase = useCase
    self.invites = invites
    self.referralCode = referralCode
  }
}

/// Why onboarding values are refused before anything is sent.
public enum OnboardingProblem: Error, Sendable, Equatable {
  case unknownIndustry(String)
  case brokerageOutsideRealEstate(Industry)
  case brokerageAndBrokerageID
  case emptyBrokerage
  case invalidBrokerageID(String)
  case invalidEmail(String)
  case invitesNeedTeam
  case missing([OnboardingDraft.Field])

  public var message: String {
    switch self {
    case .unknownIndustry(let text):
      "Unknown industry \"\(text)\". Use one of: \(Industry.allCases.map(\.rawValue).joined(separator: ", "))."
    case .brokerageOutsideRealEstate(let industry):
      "--brokerage and --brokerage-id are only for the Real Estate industry, not \(industry.rawValue)."
    case .brokerageAndBrokerageID:
      "--brokerage and --brokerage-id exclude each other: give a name or an id."
    case .emptyBrokerage:
      "--brokerage is empty."
    case .invalidBrokerageID(let text):
      "--brokerage-id must be a UUID, got \"\(text)\"."
    case .invalidEmail(let text):
      "\"\(text)\" is not a valid email address."
    case .invitesNeedTeam:
      "--invite is for team onboarding: it implies --use-case team and cannot go with solo."
    case .missing(let fields):
      "Missing \(fields.map(\.flag).joined(separator: ", "))."
    }
  }
}

/// The onboarding form: what the flags gave and what the wizard adds, in the spec's step
/// order (section 2, step 3: name, use case, workspace name, industry, optional brokerage,
/// optional team invites). The brokerage part is the brokerage spec's view model.
public struct OnboardingDraft: Sendable, Equatable {
  /// The required fields, in step order.
  public enum Field: String, CaseIterable, Sendable {
    case firstName, lastName, useCase, workspaceName, industry

    public var flag: String {
      switch self {
      case .firstName: "--first-name"
      case .lastName: "--last-name"
      case .useCase: "--use-case"
      case .workspaceName: "--workspace-name"
      case .industry: "--industry"
      }
    }
  }

  public var firstName: String?
  public var lastName: String?
  public var useCase: UseCase?
  public var workspaceName: String?
  public private(set) var industry: Industry?
  /// The brokerage view model (brokerage-onboarding.md, section 5): it alone builds the
  /// brokerage fields of the payload.
  public var brokerage = BrokerageState()
  /// Normalized (trimmed, lowercased) and without duplicates.
  public private(set) var inviteEmails: [String] = []
  public var referralCode: String?

  public init() {}

  /// Sets the industry; leaving Real Estate clears the brokerage (section 3, rule 2).
  public mutating func setIndustry(_ industry: Industry) {
    self.industry = industry
    brokerage.onIndustryChanged(industry.rawValue)
  }

  /// Adds invite emails after checking them; duplicates are dropped.
  public mutating func addInvites(_ emails: [String]) throws(OnboardingProblem) {
    for email in emails {
      guard EmailRules.isValid(email) else { throw .invalidEmail(EmailRules.trim(email)) }
      let normalized = EmailRules.normalize(email)
      if !inviteEmails.contains(normalized) { inviteEmails.append(normalized) }
    }
  }

  public mutating func removeInvites() { inviteEmails = [] }

  /// The required fields still missing, in step order.
  public var missing: [Field] {
    Field.allCases.filter { field in
      switch field {
      case .firstName: firstName == nil
      case .lastName: lastName == nil
      case .useCase: useCase == nil
      case .workspaceName: workspaceName == nil
      case .industry: industry == nil
      }
    }
  }

  /// The request body of `POST /api/onboarding/complete`. Brokerage fields come from the
  /// brokerage view model (none outside Real Estate); invites only for team.
  public func payload() throws(OnboardingProblem) -> OnboardingPayload {
    guard missing.isEmpty, let firstName, let lastName, let useCase, let workspaceName, let industry else {
      throw .missing(missing)
    }
    let brokerage = self.brokerage.payload()
    return OnboardingPayload(
      firstName: firstName, lastName: lastName, workspaceName: workspaceName, industry: industry,
      referralCode: referralCode, useCase: useCase, inviteEmails: useCase == .team ? inviteEmails : [],
      brokerage: brokerage.brokerage, brokerageId: brokerage.brokerageId)
  }

  /// The summary shown before the wizard asks to submit.
  public var summary: [(String, String)] {
    var rows: [(String, String)] = [
      ("Name", [firstName, lastName].compactMap { $0 }.joined(separator: " ")),
      ("Use case", useCase?.rawValue ?? "-"),
      ("Workspace", workspaceName ?? "-"),
      ("Industry", industry?.rawValue ?? "-"),
    ]
    if brokerage.showBrokerageField {
      let payload = brokerage.payload()
      switch (payload.brokerage, payload.brokerageId) {
      case (let name?, let id?): rows.append(("Brokerage", "\(name) (existing, \(id))"))
      case (nil, let id?): rows.append(("Brokerage", "existing, \(id)"))
      case (let name?, nil): rows.append(("Brokerage", "\(name) (new)"))
      case (nil, nil): rows.append(("Brokerage", "none"))
      }
    }
    if useCase == .team {
      rows.append(("Invites", inviteEmails.isEmpty ? "none" : inviteEmails.joined(separator: ", ")))
    }
    rows.append(("Referral code", referralCode ?? "none"))
    return rows
  }
}

/// The body of `POST /api/onboarding/complete` (section 4, `OnboardingCompleteRequest`),
/// checked and in canonical form.
public struct OnboardingPayload: Sendable, Equatable {
  public var firstName: String
  public var lastName: String
  public var workspaceName: String
  public var industry: Industry
  public var referralCode: String?
  public var useCase: UseCase
  public var inviteEmails: [String]
  public var brokerage: String?
  public var brokerageId: String?
}

/// Checking onboarding input before anything is sent.
public enum OnboardingRules {
  /// A draft from the command-line flags. Refuses what can never be sent: an unknown
  /// industry (matched without regard to case), brokerage flags outside Real Estate, both
  /// brokerage flags, an id that is not a UUID, invalid invite emails, invites with solo.
  /// Brokerage flags without --industry imply Real Estate; --invite implies team.
  public static func draft(from flags: OnboardingFlags) throws(OnboardingProblem) -> OnboardingDraft {
    var draft = OnboardingDraft()
    draft.firstName = nonEmpty(flags.firstName)
    draft.lastName = nonEmpty(flags.lastName)
    draft.workspaceName = nonEmpty(flags.workspaceName).map(BrokerageRules.sanitize)
    draft.referralCode = nonEmpty(flags.referralCode)

    var industry: Industry?
    if let text = flags.industry {
      guard let match = Industry(matching: text) else { throw .unknownIndustry(EmailRules.trim(text)) }
      industry = match
    }
    if flags.brokerage != nil || flags.brokerageID != nil {
      guard flags.brokerage == nil || flags.brokerageID == nil else { throw .brokerageAndBrokerageID }
      if let industry, !industry.hasBrokerage { throw .brokerageOutsideRealEstate(industry) }
      industry = .realEstate
    }
    if let industry { draft.setIndustry(industry) }
    if let text = flags.brokerageID {
      let id = EmailRules.trim(text)
      guard BrokerageRules.isUUID(id) else { throw .invalidBrokerageID(id) }
      draft.brokerage.onSelectSuggestion(BrokerageSuggestion(id: id.lowercased(), name: ""))
    } else if let text = flags.brokerage {
      guard !BrokerageRules.sanitize(text).isEmpty else { throw .emptyBrokerage }
      draft.brokerage.onBrokerageTextChanged(text)
      draft.brokerage.onSelectAddNew()
    }

    let invites = flags.invites.flatMap(splitEmailList)
    if !invites.isEmpty {
      guard flags.useCase != .solo else { throw .invitesNeedTeam }
      try draft.addInvites(invites)
      draft.useCase = .team
    } else {
      draft.useCase = flags.useCase
    }
    return draft
  }

  /// Emails typed as one answer: separated by commas, semicolons or whitespace.
  public static func splitEmailList(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == "," || $0 == ";" || $0.isWhitespace }).map(String.init)
  }

  static func nonEmpty(_ text: String?) -> String? {
    guard let text else { return nil }
    let trimmed = EmailRules.trim(text)
    return trimmed.isEmpty ? nil : trimmed
  }
}
