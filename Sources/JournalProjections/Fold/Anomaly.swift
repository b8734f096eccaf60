/// Something odd the fold met and stepped over, reported as a value.
///
/// Anomalies arise from histories that validation would never produce alone:
/// two devices acting on the same log concurrently, a revert that cancels an
/// event later events relied on, an event for a deleted workout.
public struct Anomaly: Sendable, Hashable, CustomStringConvertible {
  public var eventID: String
  public var stream: String
  public var message: String

  public init(eventID: String, stream: String, message: String) {
    self.eventID = eventID
    self.stream = stream
    self.message = message
  }

  public var description: String { "\(stream): event \(eventID): \(message)" }
}
