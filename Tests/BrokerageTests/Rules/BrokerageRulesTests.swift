import BrokerageRules
import Testing

/// The QA matrix of brokerage-onboarding.md, section 10, and the edge cases of section 9.
@Suite("Brokerage onboarding rules")
struct BrokerageRulesTests {
  let keller = BrokerageSuggestion(id: "5f0c1c7e-0000-4000-8000-000000000001", name: "Keller Williams Realty")
  let kellerAustin = BrokerageSuggestion(id: "5f0c1c7e-0000-4000-8000-000000000002", name: "Keller Williams Austin")

  func realEstate() -> BrokerageState {
    var state = BrokerageState()
    state.onIndustryChanged("Real Estate")
    return state
  }

  // QA 1: Non-Real-Estate industry.
  @Test(arguments: Industry.allCases.filter { $0 != .realEstate })
  func nonRealEstateHasNoBrokerage(industry: Industry) {
    var state = BrokerageState()
    state.onIndustryChanged(industry.rawValue)
    #expect(!state.showBrokerageField)
    #expect(state.onBrokerageTextChanged("Keller") == nil, "no search outside Real Estate")
    #expect(state.payload() == BrokeragePayload(brokerage: nil, brokerageId: nil))
  }

  // QA 2: Real Estate + existing brokerage.
  @Test func selectingASuggestionSendsItsId() {
    var state = realEstate()
    let query = state.onBrokerageTextChanged("  kell ")
    #expect(query == "kell")
    state.onSearchResults([keller, kellerAustin], for: "kell")
    #expect(state.isSuggestionsOpen)
    state.onSelectSuggestion(keller)
    #expect(!state.isSuggestionsOpen)
    #expect(state.payload() == BrokeragePayload(brokerage: "Keller Williams Realty", brokerageId: keller.id))
  }

  // QA 3: Real Estate + custom brokerage, via add-new or by leaving the typed value.
  @Test func customTextIsSentSanitizedWithNoId() {
    var state = realEstate()
    state.onBrokerageTextChanged("  Acme   Homes  Group ")
    state.onSearchResults([], for: "Acme   Homes  Group")
    #expect(state.showsAddNew, "no matches still offers add-new")
    #expect(state.addNewLabel == "Add \"Acme Homes Group\" as new brokerage")
    #expect(state.payload() == BrokeragePayload(brokerage: "Acme Homes Group", brokerageId: nil))
    state.onSelectAddNew()
    #expect(state.brokerageText == "Acme Homes Group")
    #expect(state.payload() == BrokeragePayload(brokerage: "Acme Homes Group", brokerageId: nil))
  }

  // QA 4 and 5: leaving Real Estate clears everything; coming back starts clean.
  @Test func industryChangeClearsAndReturnStartsClean() {
    var state = realEstate()
    state.onBrokerageTextChanged("kell")
    state.onSearchResults([keller], for: "kell")
    state.onSelectSuggestion(keller)
    state.onIndustryChanged("Solar")
    #expect(state.brokerageText.isEmpty)
    #expect(state.selectedBrokerageId == nil)
    #expect(state.suggestions.isEmpty && !state.isSuggestionsOpen)
    state.onIndustryChanged("Real Estate")
    #expect(state.showBrokerageField)
    #expect(state.brokerageText.isEmpty && state.selectedBrokerageId == nil && state.suggestions.isEmpty)
  }

  // QA 6: a failed search keeps the typed value and lets the user continue.
  @Test func searchFailureKeepsTypedValue() {
    var state = realEstate()
    state.onBrokerageTextChanged("Acme")
    state.onSearchFailed(for: "Acme")
    #expect(state.suggestions.isEmpty)
    #expect(state.searchError == "Couldn’t load suggestions")
    #expect(state.brokerageText == "Acme")
    #expect(state.payload() == BrokeragePayload(brokerage: "Acme", brokerageId: nil))
  }

  // QA 7: one onboarding request in flight.
  @Test func onlyOneSubmissionInFlight() {
    var gate = SubmissionGate()
    let first = gate.begin()
    let second = gate.begin()
    #expect(first && !second)
    gate.end()
    let afterEnd = gate.begin()
    #expect(afterEnd)
  }

  // Section 9.1: editing after a selection clears the id.
  @Test func editingASelectionClearsTheId() {
    var state = realEstate()
    state.onBrokerageTextChanged("kell")
    state.onSearchResults([keller], for: "kell")
    state.onSelectSuggestion(keller)
    state.onBrokerageTextChanged("Keller Williams Realt")
    #expect(state.selectedBrokerageId == nil)
    #expect(state.payload().brokerageId == nil)
  }

  // Section 9.2: clearing the input closes the list and drops the id.
  @Test func clearingTheInputClosesTheList() {
    var state = realEstate()
    state.onBrokerageTextChanged("kell")
    state.onSearchResults([keller], for: "kell")
    state.onSelectSuggestion(keller)
    #expect(state.onBrokerageTextChanged("   ") == nil)
    #expect(!state.isSuggestionsOpen && state.selectedBrokerageId == nil)
    #expect(state.payload() == BrokeragePayload())
  }

  // Section 9.5 and 4: an exact name typed (any case) is not offered as new, but is sent as text.
  @Test func exactMatchIgnoresCase() {
    var state = realEstate()
    state.onBrokerageTextChanged("keller williams REALTY")
    state.onSearchResults([kellerAustin, keller], for: "keller williams REALTY")
    #expect(!state.showsAddNew)
    #expect(BrokerageRules.exactMatch("  keller   williams realty", in: [kellerAustin, keller]) == keller)
    #expect(state.payload() == BrokeragePayload(brokerage: "keller williams REALTY", brokerageId: nil))
  }

  @Test func staleResultsAreIgnored() {
    var state = realEstate()
    state.onBrokerageTextChanged("ke")
    state.onBrokerageTextChanged("kel")
    state.onSearchResults([kellerAustin], for: "ke")
    #expect(state.suggestions.isEmpty)
    state.onSearchResults([keller], for: "kel")
    #expect(state.suggestions == [keller])
  }

  @Test func sanitizeTrimsAndCollapses() {
    #expect(BrokerageRules.sanitize("  RE/MAX \t  Alliance\n") == "RE/MAX Alliance")
    #expect(BrokerageRules.sanitize("   ") == "")
  }

  @Test func uuidCheck() {
    #expect(BrokerageRules.isUUID("5f0c1c7e-0000-4000-8000-000000000001"))
    #expect(!BrokerageRules.isUUID("5f0c1c7e-0000-4000-8000-00000000000"))
    #expect(!BrokerageRules.isUUID("Keller Williams"))
  }

  @Test func industryMatchingIgnoresCaseAndSpacing() {
    #expect(Industry(matching: "real estate") == .realEstate)
    #expect(Industry(matching: "REAL-ESTATE") == .realEstate)
    #expect(Industry(matching: "hvac") == .hvac)
    #expect(Industry(matching: "pest_control") == .pestControl)
    #expect(Industry(matching: "Plumbing") == nil)
  }
}
