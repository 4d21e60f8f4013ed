/// The most of one HTTP response's body deck reads: the transport stops reading past it (while
/// the body streams in, and at once when Content-Length says more), and the request fails with
/// an error that names the host and the operation.
public enum ResponseBodyLimit {
  /// 32 MB: many times the largest answer deck's contracts describe (a page of search results
  /// is a few hundred KB), and still a bounded cost (without a limit, a hostile 1 GiB answer takes
  /// deck to 3.1 GB: docs/RELIABILITY.md).
  public static let standard = 32 << 20

  /// The limit for requests sent by the current task (a photo's download sets its own, the
  /// contract check its 4 MB).
  @TaskLocal public static var bytes = standard
}
