import DeckCore
import DeckSupport
import FoundationEssentials
import PrefsRules

/// Reading and checking the image `photo set` is given.
enum PhotoInput {
  /// The largest file deck reads (a phone's photo is a few MB; a panorama can be tens).
  static let readLimit = 64 << 20

  static func read(_ file: String) throws -> Data {
    let source = file == "-" ? "stdin" : file
    let hint = "Give the path of a JPEG, PNG, WebP or HEIC image, or - to read one from stdin."
    if file == "-" && TerminalInput.stdinIsTerminal {
      throw DeckError.usage(
        "stdin is a terminal, not an image.", hint: "Pipe the image in: deck prefs photo set - < photo.jpg")
    }
    var isDirectory = false
    if file != "-", FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory {
      throw DeckError.usage("\(source) is a directory, not an image.", hint: hint)
    }
    guard let data = InputFile.bytes(of: file, upTo: readLimit + 1) else {
      throw DeckError.usage("Cannot read the photo \(source).", hint: hint)
    }
    guard data.count <= readLimit else {
      throw DeckError.usage(
        "The photo \(source) is larger than \(readLimit >> 20) MB, the most deck reads.",
        hint: "Export a smaller copy of it first.")
    }
    guard !data.isEmpty else { throw DeckError.usage("The photo \(source) is empty.", hint: hint) }
    return data
  }

  /// The type the bytes say, if the profile photo takes it (exit 64 otherwise).
  static func type(of data: Data, source: String) throws -> PhotoType {
    guard let type = PhotoType.detect(data) else {
      throw DeckError.usage(
        "\(source) is not an image deck knows: its first bytes are no JPEG, PNG, WebP, HEIC or AVIF signature.",
        hint: "Give a JPEG, PNG, WebP or HEIC image (deck reads the type from the bytes, not the file name).")
    }
    guard type.isAccepted else { throw unsupported(type, source: source) }
    return type
  }

  static func unsupported(_ type: PhotoType, source: String) -> DeckError {
    DeckError.usage(
      "\(source) is a \(type.displayName) image; the profile photo takes JPEG, PNG, WebP, HEIC or AVIF.",
      hint: "Convert it first, e.g. to PNG or JPEG.")
  }

  /// The whole image, decoded (exit 64 when it is corrupt, declares more than 40 megapixels, or
  /// the library cannot read its type). The header is checked first, here and by libvips.
  static func decode(_ data: Data, type: PhotoType, source: String) throws -> PhotoImage.Decoded {
    if let size = ImageSize.declared(by: data, type: type), size.pixels > ProfilePhoto.maximumPixels {
      throw tooManyPixels(size, source: source)
    }
    do {
      return try PhotoImage.decode(data)
    } catch {
      switch error.kind {
      case .noLibrary: throw PhotoInput.noLibrary(error)
      case .tooManyPixels(let size): throw tooManyPixels(size, source: source)
      case .unreadableFormat:
        throw DeckError.usage(
          "\(source) is a \(type.displayName) image, which this system's image library (libvips) cannot read.",
          hint: "Convert it to JPEG or PNG first, or install libvips with \(type.displayName) support.")
      case .image: break
      }
      throw DeckError.usage(
        "\(source) looks like a \(type.displayName) image but cannot be decoded: \(error.reason).",
        hint: "The file is corrupt or truncated; export the photo again.")
    }
  }

  /// A header that declares more pixels than a photo may have: exit 64, nothing decoded.
  static func tooManyPixels(_ size: ImageSize, source: String) -> DeckError {
    DeckError.usage(
      "\(source) declares \(size.width)×\(size.height) pixels (\(size.megapixelsText) megapixels); the profile photo takes at most \(ProfilePhoto.maximumPixels / 1_000_000) megapixels, and deck does not decode more.",
      hint: "Scale it down first, e.g. to 4096 pixels on its longest side.")
  }

  /// libvips is missing: exit 69, with what to install.
  static func noLibrary(_ failure: PhotoImage.Failure) -> DeckError {
    DeckError(
      .unavailable(status: nil), "The image library libvips could not be loaded: \(failure.reason).",
      hint: "Install it (Debian/Ubuntu: apt-get install libvips42, or run scripts/setup).")
  }

  /// What is sent: the file as it is when it fits, else the first JPEG of the plan that fits.
  struct Fitted {
    var data: Data
    var type: PhotoType
    var width: Int
    var height: Int
    var compression: PhotoSet.Compression?
  }

  static func fit(_ data: Data, original: PhotoSet.Original, source: String) throws -> Fitted {
    guard data.count > ProfilePhoto.maximumBytes else {
      return Fitted(data: data, type: original.type, width: original.width, height: original.height)
    }
    let steps = CompressionPlan.steps(width: original.width, height: original.height)
    for (index, step) in steps.enumerated() {
      let encoded: PhotoImage.Encoded
      do {
        encoded = try PhotoImage.jpeg(data, step)
      } catch {
        if error.kind == .noLibrary { throw noLibrary(error) }
        throw DeckError.usage(
          "Could not compress \(source): \(error.reason).", hint: "Export the photo as a JPEG under 5 MB first.")
      }
      guard encoded.data.count <= ProfilePhoto.maximumBytes else { continue }
      return Fitted(
        data: encoded.data, type: .jpeg, width: encoded.width, height: encoded.height,
        compression: .init(format: .jpeg, quality: step.quality, maximumSide: step.maximumSide, tries: index + 1))
    }
    throw DeckError.usage(
      "\(source) could not be compressed under \(ProfilePhoto.sizeText(ProfilePhoto.maximumBytes)), "
        + "even at \(CompressionPlan.smallestSide) pixels and quality \(CompressionPlan.qualities.last ?? 0).",
      hint: "Export a smaller copy of the photo first.")
  }
}
