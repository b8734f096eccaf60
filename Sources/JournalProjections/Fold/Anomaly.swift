/// Something odd the fold met and stepped over, reported as a value.
///
/// Anomalies arise from histories that validation would never produce alone:
/// two devices acting on the same log concurrently, a revert that cancels an
/// event later events relied on, an event for a deleted workout.
struct Anomaly: Sendable, Hashable, CustomStringConvertible {
  var eventID: String
  var stream: String
  var message: String

  init(eventID: String, stream: String, message: String) {
    self.eventID = eventID
    self.stream = stream
    self.message = message
  }

  var description: String { "\(stream): event \(eventID): \(message)" }
}
