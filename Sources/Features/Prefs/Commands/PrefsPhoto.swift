import ArgumentParser
import DeckAuth
import DeckCore
import DeckSupport
import FoundationEssentials
import PrefsRules

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `deck prefs photo`: the profile photo of the player details (preferences.md §2A, form
/// section 1: 5 MB max, auto-compress), kept in Supabase Storage.
struct PrefsPhoto: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "photo", abstract: "Set, download or remove the profile photo (5 MB max, compressed to fit).",
    discussion: HelpText.discussion(
      """
      The photo of the player details, stored in the app's Supabase Storage (bucket
      profile-photos, in the owner's folder). It may be a JPEG, PNG, WebP, HEIC or AVIF image:
      deck tells the type from the file's bytes, not its name, and reads the whole image before
      sending it. A photo over 5 MB is made to fit as the app does: shrunk and re-encoded as a JPEG
      (libvips), trying the largest size and best quality first. Parents see the athlete's photo
      but cannot change it.
      """,
      exits: PhotoSet.exits),
    subcommands: [PhotoSet.self, PhotoGet.self, PhotoRemove.self])
}

// MARK: set

struct PhotoSet: DeckCommand, NamingFiles {
  static let files = FileArguments(readsArgument: true)

  static let configuration = CommandConfiguration(
    commandName: "set", _superCommandName: "deck",
    abstract: "Upload a profile photo from a file, or - for stdin; over 5 MB it is compressed to fit.",
    discussion: HelpText.discussion(
      """
      Replaces the photo that is there. The type is told from the bytes (JPEG, PNG, WebP, HEIC or
      AVIF; GIF, TIFF, BMP and anything else is refused), and the whole image is decoded first, so
      a truncated or corrupt file is refused (exit 64) and nothing is sent. An image whose header
      declares more than 40 megapixels is refused (exit 64) before anything is decoded. A photo of at most 5 MB
      is stored as it is, byte for byte. A bigger one is turned upright, shrunk to at most 4096
      pixels on its longest side (then by a quarter at a time, down to 512) and encoded as a JPEG
      of quality 85, then 70, until it fits; its metadata (EXIF, location) is not kept. deck says
      what it did.

      With --json: {owner, key, type, size, width, height, original: {type, size, width, height},
      compression} where compression is null when the file was stored as it is, else {format,
      quality, maximumSide, tries}.

      $ deck prefs photo set ~/Pictures/me.heic
      $ curl -s https://example.com/me.png | deck prefs photo set -
      """,
      exits: exits))

  static let exits: [ExitDoc] = [
    .failure(),
    .usage(
      "not an image deck takes, a corrupt one, one over 40 megapixels, one that cannot be made to fit, or an unreadable file"
    ),
    .rejected("storage refused the photo"), .unavailable("storage could not be reached"),
    .unauthorized("not signed in, or a parent (parents cannot change the photo)"),
  ]

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The image file, or - to read it from stdin.", valueName: "file"), completion: .file())
  var file: String

  struct Original: Encodable {
    var type: PhotoType
    var size: Int
    var width: Int
    var height: Int
  }

  struct Compression: Encodable {
    var format: PhotoType
    var quality: Int
    var maximumSide: Int
    /// How many steps of the plan were tried (the last one fitted).
    var tries: Int
  }

  struct View: Encodable {
    var owner: String
    var key: String
    var type: PhotoType
    var mimeType: String
    var size: Int
    var width: Int
    var height: Int
    var original: Original
    @ExplicitNull var compression: Compression?
  }

  func run(_ context: DeckContext) async throws {
    let service = PhotoService(context: context)
    let owner = try await service.requireWritable()
    let source = file == "-" ? "stdin" : file
    let data = try PhotoInput.read(file)
    let type = try PhotoInput.type(of: data, source: source)
    // libvips takes seconds on a large photo: not on a cooperative thread.
    let (original, fitted) = try await BlockingWork.run(named: "deck-photo") {
      let decoded = try PhotoInput.decode(data, type: type, source: source)
      let original = Original(type: type, size: data.count, width: decoded.width, height: decoded.height)
      return (original, try PhotoInput.fit(data, original: original, source: source))
    }
    try await service.upload(fitted.data, type: fitted.type, owner: owner)
    let view = View(
      owner: owner.email, key: "\(ProfilePhoto.bucket)/\(owner.id)/\(ProfilePhoto.objectName)", type: fitted.type,
      mimeType: fitted.type.mimeType, size: fitted.data.count, width: fitted.width, height: fitted.height,
      original: original, compression: fitted.compression)
    try context.output.emit(view) {
      let who = TerminalText.sanitize(owner.email)
      if let compression = fitted.compression {
        context.output.info(
          "\(source) is \(ProfilePhoto.sizeText(data.count)) (\(type.displayName), \(original.width)×\(original.height)), "
            + "over the \(ProfilePhoto.sizeText(ProfilePhoto.maximumBytes)) limit: compressed it to a JPEG of "
            + "\(fitted.width)×\(fitted.height) at quality \(compression.quality), "
            + "\(ProfilePhoto.sizeText(fitted.data.count)) (\(compression.tries) \(compression.tries == 1 ? "try" : "tries"))."
        )
      }
      context.output.info(
        "Saved the profile photo of \(who): \(fitted.type.displayName), \(fitted.width)×\(fitted.height), "
          + "\(ProfilePhoto.sizeText(fitted.data.count)).")
    }
  }
}

// MARK: get

struct PhotoGet: DeckCommand, NamingFiles {
  static let files = FileArguments(writes: ["--output", "-o"])

  static let configuration = CommandConfiguration(
    commandName: "get", _superCommandName: "deck",
    abstract: "Download the profile photo to a file (--output), or to stdout when it is not a terminal.",
    discussion: HelpText.discussion(
      """
      Writes the photo's bytes as they are stored. Like curl, deck does not write an image to a
      terminal: give --output FILE (written atomically), or redirect stdout. A parent gets the
      photo of the athlete they follow.

      With --json (or another --format) it prints {owner, type, mimeType, size, width, height,
      updatedAt, output}; without --output the bytes are then not written anywhere.

      $ deck prefs photo get --output me.jpg
      $ deck prefs photo get > me.jpg
      """,
      exits: [
        .failure("no photo is set"), .usage("stdout is a terminal and no --output was given"),
        .unavailable("storage could not be reached"), .unauthorized(),
      ]))

  @OptionGroup var global: GlobalOptions

  @Option(
    name: [.short, .long], help: ArgumentHelp("Write the photo to this file (- for stdout).", valueName: "file"),
    completion: .file())
  var output: String?

  struct View: Encodable {
    var owner: String
    var type: PhotoType?
    var mimeType: String?
    var size: Int
    @ExplicitNull var width: Int?
    @ExplicitNull var height: Int?
    @ExplicitNull var output: String?
  }

  func run(_ context: DeckContext) async throws {
    if output == "-" && !context.output.isHuman {
      throw DeckError.usage(
        "--output - writes the photo to stdout, where the \(context.output.format.rawValue) result goes too.",
        hint: "Give --output FILE, or leave out --json (and --format, --jq).")
    }
    let toStdout = output == "-" || (output == nil && context.output.isHuman)
    if output == nil && context.output.isHuman && context.output.stdoutIsTerminal {
      throw DeckError.usage(
        "The photo is binary data; deck does not write it to a terminal.",
        hint: "Give --output FILE, or redirect it: deck prefs photo get > photo.jpg")
    }
    let service = PhotoService(context: context)
    let owner = try await service.owner()
    guard let data = try await service.download(owner) else {
      throw DeckError(
        .notFound, "No profile photo is set for \(TerminalText.sanitize(owner.email)).",
        hint: owner.readOnly ? nil : "Set one with: deck prefs photo set FILE")
    }
    let type = PhotoType.detect(data)
    let decoded = try? await BlockingWork.run(named: "deck-photo") { try PhotoImage.decode(data) }
    if let output, output != "-" {
      do {
        try AtomicFile.write(data, to: output)
      } catch {
        throw DeckError.usage("Cannot write \(output): \(ErrorText.describe(error)).", hint: "Give a writable path.")
      }
    } else if toStdout {
      try Self.writeStdout(data)
    }
    let view = View(
      owner: owner.email, type: type, mimeType: type?.mimeType, size: data.count, width: decoded?.width,
      height: decoded?.height, output: toStdout ? "-" : output)
    let what = [
      type?.displayName, decoded.map { "\($0.width)×\($0.height)" }, ProfilePhoto.sizeText(data.count),
    ].compactMap { $0 }.joined(separator: ", ")
    let destination = toStdout ? "stdout" : output ?? "stdout"
    try context.output.emit(view) {
      context.output.info(
        "Wrote the profile photo of \(TerminalText.sanitize(owner.email)) (\(what)) to \(destination).")
    }
  }

  /// The bytes to fd 1, whole (a broken pipe or full disk is an error, exit 1).
  static func writeStdout(_ data: Data) throws {
    try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = write(1, base + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else {
          throw DeckError.failure("Could not write the photo to stdout: \(String(cString: strerror(errno))).")
        }
        offset += written
      }
    }
  }
}

// MARK: remove

struct PhotoRemove: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove", _superCommandName: "deck",
    abstract: "Remove the profile photo.",
    discussion: HelpText.discussion(
      """
      Says plainly when there was no photo to remove (exit 0). With --json: {owner, removed}.
      """,
      exits: [
        .failure(), .unavailable("storage could not be reached"),
        .unauthorized("not signed in, or a parent (parents cannot change the photo)"),
      ]))

  @OptionGroup var global: GlobalOptions

  struct View: Encodable {
    var owner: String
    var removed: Bool
  }

  func run(_ context: DeckContext) async throws {
    let service = PhotoService(context: context)
    let owner = try await service.requireWritable()
    let removed = try await service.remove(owner)
    let who = TerminalText.sanitize(owner.email)
    try context.output.emit(
      View(owner: owner.email, removed: removed),
      message: removed
        ? "Removed the profile photo of \(who)." : "There was no profile photo of \(who) to remove; nothing changed.")
  }
}

// MARK: prefs get player

/// The photo line of `prefs get player`: whether a photo is set, and its size. Never fails the
/// get: when storage cannot be asked, it says so.
enum PhotoSummary {
  struct View: Encodable, Sendable {
    var set: Bool?
    @ExplicitNull var type: PhotoType?
    @ExplicitNull var size: Int?
    @ExplicitNull var problem: String?
  }

  /// `offline`: the preferences came from the cache (the service is unreachable): storage is not asked.
  static func look(_ context: DeckContext, offline: Bool = false) async -> View {
    if offline { return View(set: nil, type: nil, size: nil, problem: "not asked while the service is unreachable") }
    do {
      let service = PhotoService(context: context)
      guard let info = try await service.info(try await service.owner()) else {
        return View(set: false, type: nil, size: nil, problem: nil)
      }
      return View(set: true, type: PhotoType(mimeType: info.contentType), size: info.size, problem: nil)
    } catch {
      return View(set: nil, type: nil, size: nil, problem: ErrorPresenter.deckError(for: error).message)
    }
  }

  /// The form's first section, "Profile Photo", above the others.
  static func show(_ view: View, on output: Output) {
    output.styledLines([output.style("Profile Photo", .bold), "  " + TerminalText.sanitize(line(view)), ""])
  }

  static func line(_ view: View) -> String {
    switch view.set {
    case true?:
      let size = view.size.map(ProfilePhoto.sizeText) ?? "unknown size"
      return "set (\([view.type?.displayName, size].compactMap { $0 }.joined(separator: ", ")))"
    case false?: return "not set"
    case nil: return "unknown (\(TerminalText.sanitize(view.problem ?? "storage could not be asked")))"
    }
  }
}
