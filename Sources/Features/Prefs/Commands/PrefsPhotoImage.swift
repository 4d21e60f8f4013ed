import CVips
import DeckSupport
import FoundationEssentials
import PrefsRules

/// The profile photo's image work, on libvips (System/CVips, loaded when first needed): reading
/// an image whole (a corrupt or truncated one fails here, before anything is sent), and
/// shrinking and re-encoding one over the 5 MB limit as a JPEG, as the app does.
enum PhotoImage {
  /// An image read whole.
  struct Decoded: Sendable, Equatable {
    var width: Int
    var height: Int
  }

  /// A JPEG made from an image by one compression step.
  struct Encoded: Sendable {
    var data: Data
    var width: Int
    var height: Int
  }

  /// Reads every pixel of `data`, once its header declares at most ``ProfilePhoto/maximumPixels``;
  /// throws `Failure` naming the library's reason when it cannot.
  static func decode(_ data: Data) throws(Failure) -> Decoded {
    let api = try Library.shared.api()
    return try Failure.typed {
      try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws -> Decoded in
        guard let base = buffer.baseAddress, buffer.count > 0 else { throw Failure(reason: "the file is empty") }
        guard deck_vips_has_loader(api, base, buffer.count) != 0 else {
          deck_vips_error_clear(api)
          throw Failure(reason: "the image library has no reader for it", kind: .unreadableFormat)
        }
        guard let image = deck_vips_load(api, base, buffer.count) else { throw Failure(reason: lastError(api)) }
        defer { deck_vips_release(api, image) }
        // The header is read; no pixel is decoded before its size is checked.
        let size = ImageSize(width: Int(deck_vips_width(api, image)), height: Int(deck_vips_height(api, image)))
        guard size.pixels <= ProfilePhoto.maximumPixels else {
          throw Failure(reason: "it declares \(size.width)×\(size.height) pixels", kind: .tooManyPixels(size))
        }
        guard deck_vips_decode_all(api, image) == 0 else { throw Failure(reason: lastError(api)) }
        return Decoded(width: size.width, height: size.height)
      }
    }
  }

  /// `data` turned upright, shrunk into the step's box and encoded as a JPEG of its quality
  /// (transparency flattened onto white, metadata such as the EXIF location stripped).
  static func jpeg(_ data: Data, _ step: CompressionStep) throws(Failure) -> Encoded {
    let api = try Library.shared.api()
    var bytes = [UInt8](data)
    return try Failure.typed {
      try bytes.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) throws -> Encoded in
        guard let base = buffer.baseAddress, buffer.count > 0 else { throw Failure(reason: "the file is empty") }
        var shrunk: OpaquePointer?
        guard deck_vips_thumbnail(api, base, buffer.count, &shrunk, Int32(clamping: step.maximumSide)) == 0,
          let shrunk
        else { throw Failure(reason: lastError(api)) }
        defer { deck_vips_release(api, shrunk) }
        var opaque: OpaquePointer?
        guard deck_vips_opaque(api, shrunk, &opaque) == 0, let opaque else { throw Failure(reason: lastError(api)) }
        defer { deck_vips_release(api, opaque) }
        var output: UnsafeMutableRawPointer?
        var length = 0
        guard deck_vips_jpeg(api, opaque, &output, &length, Int32(clamping: step.quality)) == 0, let output else {
          throw Failure(reason: lastError(api))
        }
        defer { deck_vips_free(api, output) }
        return Encoded(
          data: Data(bytes: output, count: length), width: Int(deck_vips_width(api, opaque)),
          height: Int(deck_vips_height(api, opaque)))
      }
    }
  }

  /// The library's error text (its first line: later ones repeat it), and clears it.
  private static func lastError(_ api: UnsafePointer<deck_vips_api>) -> String {
    let text = String(cString: deck_vips_error(api))
    deck_vips_error_clear(api)
    let lines = text.split(whereSeparator: \.isNewline).map { $0.trimming(.whitespaces) }
    return TerminalText.sanitize(lines.first { !$0.isEmpty } ?? "unknown error")
  }

  /// Why libvips could not read or write an image.
  struct Failure: Error, Sendable {
    enum Kind: Sendable, Equatable { case image, unreadableFormat, noLibrary, tooManyPixels(ImageSize) }
    var reason: String
    /// `unreadableFormat`: no loader of this library reads the format at all (e.g. HEIC without
    /// libheif); `noLibrary`: libvips is not installed or did not start; `tooManyPixels`: the
    /// header declares more than ``ProfilePhoto/maximumPixels`` (nothing was decoded).
    var kind = Kind.image

    /// `body`'s result, its error as a Failure (the buffer closures rethrow untyped).
    static func typed<Value>(_ body: () throws -> Value) throws(Failure) -> Value {
      do {
        return try body()
      } catch let failure as Failure {
        throw failure
      } catch {
        throw Failure(reason: String(describing: error))
      }
    }
  }

  /// libvips, loaded and started once per process (it stays loaded). Unchecked: the function
  /// table is written once, in `init`, and only read after.
  final class Library: @unchecked Sendable {
    static let shared = Library()

    /// The function table, or why it could not be loaded.
    private let loaded: Result<UnsafePointer<deck_vips_api>, Failure>

    private init() {
      let table = UnsafeMutablePointer<deck_vips_api>.allocate(capacity: 1)
      table.initialize(to: deck_vips_api())
      var problem: UnsafePointer<CChar>?
      if deck_vips_open(table, &problem) == 0 {
        loaded = .success(UnsafePointer(table))
      } else {
        let why = problem.map { String(cString: $0) } ?? "unknown error"
        loaded = .failure(Failure(reason: TerminalText.sanitize(why), kind: .noLibrary))
      }
    }

    func api() throws(Failure) -> UnsafePointer<deck_vips_api> { try loaded.get() }
  }
}
