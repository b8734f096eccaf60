/// An event to append: what the caller decides.
///
/// The writer adds the id (unless given), the
/// device, the sequence number, the clock reading and the hash link.
public struct NewEvent: Sendable, Hashable {
  /// The stream the event belongs to, such as `workout:01J…` or `split:01J…`.
  ///
  /// Not empty.
  public var stream: String
  /// The stable type string, such as `set.completed`.
  ///
  /// Not empty.
  public var type: String
  /// The version of the payload's schema for ``type``, from 1.
  public var version: Int
  /// The payload; must be a JSON object without NaN or infinite numbers.
  public var payload: JSONValue
  /// A chosen event id, or nil to have the writer make one from its clock.
  public var id: ULID?

  /// Creates an event to append.
  public init(stream: String, type: String, version: Int, payload: JSONValue, id: ULID? = nil) {
    self.stream = stream
    self.type = type
    self.version = version
    self.payload = payload
    self.id = id
  }
}
