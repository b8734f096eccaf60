import Dispatch
import Foundation

// A long history folded in parts at once, one per core: the same state as folding it event
// by event, in less time.
//
// The fold of a workout event reads and changes only its own workout, and the fold of a split
// event only the splits (`JournalEvent.foldTarget`). So the events are dealt into parts, the
// split events and some workouts into the first, every other workout into one part by its id,
// and each part is folded in merge order by the one fold (`Replayer.Fold.apply`). The states
// are then put together: the splits and workouts of every part, the event counts added, the
// latest time, and the anomalies in the order of the events that caused them.

extension Replayer {
  /// A history shorter than this is folded event by event: the parts would cost more than
  /// they save.
  static let partsMinimum = 4_096

  /// How many parts a long history is folded in: one per core, at most eight.
  static let parts = min(8, max(1, ProcessInfo.processInfo.activeProcessorCount))
}

extension Replayer.Fold {
  /// Folds `events` into the state, which must be empty, in `parts` folds at once: the same
  /// state as applying each event in turn.
  mutating func applyInParts(_ events: UnsafeBufferPointer<FoldEvent>, parts: Int) {
    precondition(state.isEmpty, "a fold in parts starts from an empty state")
    let template = self
    let folded = PartResults(count: parts)
    let shared = SharedEvents(events: events)
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let events = shared.events
      var fold = template
      // The index of the event behind each anomaly, in order.
      var causes: [Int] = []
      for index in events.indices where Self.part(of: events[index], among: parts) == part {
        let known = fold.state.anomalies.count
        fold.apply(events[index])
        for _ in known..<fold.state.anomalies.count { causes.append(index) }
      }
      folded.store(PartResult(state: fold.state, causes: causes), at: part)
    }
    state = Self.combine(folded.take())
  }

  /// The part `event` is folded in: the first for split events and reverts, else one given
  /// by the last byte of the workout's id (a ULID's random part).
  static func part(of event: FoldEvent, among parts: Int) -> Int {
    guard event.event.foldTarget == .workout else { return 0 }
    return Int(event.streamTail) % parts
  }

  /// The state of every part put together.
  private static func combine(_ results: consuming [PartResult]) -> JournalState {
    var anomalies: [(cause: Int, order: Int, anomaly: Anomaly)] = []
    for index in results.indices {
      let result = results[index]
      for (order, (cause, anomaly)) in zip(result.causes, result.state.anomalies).enumerated() {
        anomalies.append((cause, order, anomaly))
      }
    }
    // The anomalies of one event are in one part, in order.
    anomalies.sort { ($0.cause, $0.order) < ($1.cause, $1.order) }
    // The first part holds every split: the others' workouts, counts and times are added
    // to it, moved out of the results so that adding copies nothing.
    var state = results[0].state
    results[0].state = JournalState()
    // Room for every part's workouts at once, rather than growing (and rehashing) as added.
    state.workouts.reserveCapacity(results.reduce(0) { $0 + $1.state.workouts.count })
    for index in results.indices.dropFirst() {
      let part = results[index].state
      // Each workout is in one part only.
      state.workouts.merge(part.workouts) { first, _ in first }
      state.eventCount += part.eventCount
      if let now = part.now, state.now.map({ now > $0 }) ?? true { state.now = now }
    }
    state.anomalies = anomalies.map(\.anomaly)
    return state
  }
}

/// What one part folded.
private struct PartResult: Sendable {
  var state: JournalState
  /// The index of the event behind each of the state's anomalies.
  var causes: [Int]
}

/// The history, read by every part at once and written by none.
private struct SharedEvents: @unchecked Sendable {
  let events: UnsafeBufferPointer<FoldEvent>
}

/// The parts' results, each written by its own part once.
private final class PartResults: @unchecked Sendable {
  private var results: [PartResult?]
  private let lock = NSLock()

  init(count: Int) { results = Array(repeating: nil, count: count) }

  func store(_ result: PartResult, at part: Int) {
    lock.withLock { results[part] = result }
  }

  /// The results, moved out: each state is then held once, and the combine adds to the
  /// first part's workouts in place instead of copying them all.
  func take() -> [PartResult] {
    lock.withLock {
      let done = results.compactMap { $0 }
      precondition(done.count == results.count, "every part is folded")
      results = []
      return done
    }
  }
}
