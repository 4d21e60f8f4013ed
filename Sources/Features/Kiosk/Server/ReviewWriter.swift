import KioskRules

/// The sandbox's stand-in for the backend's AI review: a short review in the customer's voice
/// whose tone follows the star rating and which names what was bought. Each rating has
/// several phrasings, picked at random, so two reviews are rarely the same.
enum ReviewWriter {
  static func write(
    rating: Int, items: [KioskOrderItem], storeName: String,
    using generator: inout some RandomNumberGenerator
  ) -> String {
    let things = phrase(items)
    let store = storeName
    let verb = isPlural(items) ? "are" : "is"
    let pastVerb = verb == "is" ? "was" : "were"
    let pronoun = verb == "is" ? "it" : "them"
    let templates: [String]
    switch rating {
    case 5...:
      templates = [
        "Absolutely loved my visit to \(store)! The \(things) \(verb) even better in person: beautiful quality and so thoughtfully chosen. Friendly staff and a lovely atmosphere. Highly recommend!",
        "Five stars! I picked up the \(things) and couldn't be happier with \(pronoun). Beautiful, high-quality pieces and wonderful service. I'll definitely be back.",
        "What a gem of a boutique. The \(things) \(verb) gorgeous and so well made, and the staff made shopping a pleasure. Highly recommend \(store)!",
      ]
    case 4:
      templates = [
        "Great experience at \(store)! The \(things) \(verb) lovely and well made. Helpful staff and a nice selection; I'd happily come back.",
        "Really enjoyed shopping here. I bought the \(things) and I'm very happy with \(pronoun). Friendly service and a great little boutique.",
        "A lovely shop with a well-chosen selection. The \(things) \(verb) just what I wanted, and checkout was quick and friendly.",
      ]
    case 3:
      templates = [
        "A decent visit to \(store). The \(things) \(verb) nice, though nothing stood out as special. Service was fine.",
        "It was okay. I picked up the \(things); good enough, but the experience felt a bit average overall.",
        "Mixed feelings. The \(things) \(verb) alright for the price, and the staff were polite but busy.",
      ]
    case 2:
      templates = [
        "The \(things) \(pastVerb) okay, but my visit to \(store) didn't quite live up to expectations. Service felt rushed and prices seemed high for what I got.",
        "Somewhat disappointing. I bought the \(things), but the quality wasn't what I hoped for and checkout took a while.",
        "Not the experience I was hoping for. The \(things) \(verb) fine at best, and it was hard to get any help in the store.",
      ]
    default:
      templates = [
        "Not a great experience. I bought the \(things) and was disappointed with both the quality and the service. I hope \(store) can improve.",
        "Unfortunately my visit fell short. The \(things) \(pastVerb) not what I expected, and no one seemed interested in helping.",
        "Very disappointed. The \(things) \(verb) not worth the price, and the service left a lot to be desired.",
      ]
    }
    return templates.randomElement(using: &generator)!
  }

  static func write(rating: Int, items: [KioskOrderItem], storeName: String) -> String {
    var generator = SystemRandomNumberGenerator()
    return write(rating: rating, items: items, storeName: storeName, using: &generator)
  }

  /// Whether "the …" takes a plural verb: several items, several of one, or one name that
  /// reads as a plural ("Silver Hoop Earrings").
  static func isPlural(_ items: [KioskOrderItem]) -> Bool {
    guard items.count == 1, let item = items.first else { return items.count > 1 }
    if item.quantity > 1 { return true }
    let last = item.name.split(separator: " ").last.map { $0.lowercased() } ?? ""
    return last.hasSuffix("s") && !last.hasSuffix("ss")
  }

  /// "Handmade Scarf", "Handmade Scarf and Soy Candle", "A, B and C", "A, B, C and 2 more items".
  static func phrase(_ items: [KioskOrderItem]) -> String {
    let names = items.map { $0.quantity > 1 ? "\($0.name) (×\($0.quantity))" : $0.name }
    switch names.count {
    case 0: return "purchase"
    case 1: return names[0]
    case 2...3: return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    default:
      let more = names.count - 3
      return names.prefix(3).joined(separator: ", ") + " and \(more) more item\(more == 1 ? "" : "s")"
    }
  }
}
