import Dispatch
import Foundation
import JournalCore

// A long history folded in parts at once, on every core: the same state as folding it event
// by event, in less time.
//
// The fold of a workout event reads and changes only its own workout, and the fold of a split
// event only the splits (`JournalEvent.foldTarget`). So the events are dealt into parts, the
// split events, the reverts and some workouts into the first, every other workout into one
// part by its id, and each part is folded in merge order by the one fold
// (`Replayer.Fold.apply`). There are several parts per core: a thread that finishes a part
// takes the next, so the threads end together however unevenly the parts weigh. Each part's
// state is put together with the others' as soon as it is folded (`Combination`).

extension Replayer {
  /// A history shorter than this is folded event by event: the parts would cost more than
  /// they save.
  static let partsMinimum = 4_096

  /// How many parts a long history is folded in: none on one core; else eight per core, at
  /// most 32 (the values of a ULID's last digit, by which workouts are dealt).
  static let parts: Int = {
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    return cores == 1 ? 1 : min(32, cores * 8)
  }()

  /// Folds `events`, in merge order, from an empty state in `parts` parts at once: the state
  /// ``fold(_:upTo:observe:)`` gives.
  static func foldInParts(_ events: UnsafeBufferPointer<FoldEvent>, parts: Int) -> JournalState {
    let deal = Deal(events, parts: parts)
    var fold = Fold(reverts: deal.reverts.lazy.map { events[$0] })
    fold.applyInParts(events, deal: deal)
    return fold.state
  }

  /// Where each event of a history is folded, and where its reverts are: found on every core
  /// in one pass over the history.
  struct Deal: Sendable {
    /// The part of each event.
    var parts: [UInt8]
    /// How many parts there are.
    var count: Int
    /// The index of each revert, in order.
    var reverts: [Int]
    /// How many events start a workout: at least as many as there are workouts.
    var workoutsStarted: Int

    init(_ events: UnsafeBufferPointer<FoldEvent>, parts count: Int) {
      precondition((1...256).contains(count), "a part is named by a byte")
      let chunkSize = 65_536
      let chunks = (events.count + chunkSize - 1) / chunkSize
      var parts = [UInt8](repeating: 0, count: events.count)
      // What each chunk found: where its reverts are and how many workouts it starts.
      typealias Found = (indices: [Int], started: Int)
      let reverts = ChunkResults<Found>(count: chunks)
      parts.withUnsafeMutableBufferPointer { parts in
        let (shared, dealt) = (Shared(events), Shared(parts))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
          guard let first = shared.value.baseAddress else { return }
          var found: Found = ([], 0)
          let end = min(shared.value.count, (chunk + 1) * chunkSize)
          for index in chunk * chunkSize..<end {
            let event = first + index
            switch event.pointee.event {
            case .workoutStarted: found.started += 1
            case .eventsReverted: found.indices.append(index)
            default: break
            }
            dealt.value[index] = UInt8(truncatingIfNeeded: Fold.part(of: event, among: count))
          }
          reverts.store(found, at: chunk)
        }
      }
      let found = reverts.take()
      self.parts = parts
      self.count = count
      self.reverts = found.flatMap(\.indices)
      workoutsStarted = found.reduce(0) { $0 + $1.started }
    }
  }
}

extension Replayer.Fold {
  /// Folds `events` into the state, which must be empty, in the parts `deal` gives, at once:
  /// the same state as applying each event in turn.
  mutating func applyInParts(_ events: UnsafeBufferPointer<FoldEvent>, deal: Replayer.Deal) {
    precondition(state.isEmpty, "a fold in parts starts from an empty state")
    precondition(deal.parts.count == events.count, "every event is dealt")
    let template = self
    let combination = Combination(workouts: deal.workoutsStarted)
    // Read by every part, written by none: each event is folded by one part.
    let shared = Shared(events)
    DispatchQueue.concurrentPerform(iterations: deal.count) { part in
      let events = shared.value
      let name = UInt8(truncatingIfNeeded: part)
      var fold = template
      // Room for about this part's share of the workouts, with a margin, rather than growing
      // (and moving every workout) by doubling.
      fold.state.workouts.reserveCapacity(deal.workoutsStarted / deal.count * 5 / 4 + 16)
      // The index of the event behind each anomaly, in order.
      var causes: [Int] = []
      deal.parts.withUnsafeBufferPointer { parts in
        for index in parts.indices where parts[index] == name {
          let known = fold.state.anomalies.count
          fold.apply(events[index])
          for _ in known..<fold.state.anomalies.count { causes.append(index) }
        }
      }
      combination.add(&fold.state, causes: causes)
    }
    state = combination.take()
  }

  /// The part `event` is folded in: the first for split events and reverts, else one given
  /// by the last digit of the workout's id (a ULID's random part, as a number: the parts
  /// get about as many workouts each).
  static func part(of event: UnsafePointer<FoldEvent>, among parts: Int) -> Int {
    guard event.pointee.event.foldTarget == .workout else { return 0 }
    let tail = event.pointee.streamTail
    return Int(ULID.digitValue(of: tail) ?? tail) % parts
  }
}

/// The parts' states put together, each as soon as it is folded (while other parts are still
/// being folded, so that little is left to do once the last is): the splits and workouts of
/// every part, the event counts added, the latest time, and the anomalies in the order of the
/// events that caused them.
private final class Combination: @unchecked Sendable {
  private var state = JournalState()
  private var anomalies: [(cause: Int, order: Int, anomaly: Anomaly)] = []
  private let lock = NSLock()

  /// Starts with room for `workouts` workouts, so that adding them does not grow (and rehash)
  /// the table.
  init(workouts: Int) { state.workouts.reserveCapacity(workouts) }

  /// Adds the state of a part, taking its workouts out of it; `causes` has the index of the
  /// event behind each of its anomalies.
  func add(_ part: inout JournalState, causes: [Int]) {
    lock.withLock {
      for (order, (cause, anomaly)) in zip(causes, part.anomalies).enumerated() {
        anomalies.append((cause, order, anomaly))
      }
      // Each split and each workout is in one part only (every split in the first).
      state.splits.merge(part.splits) { first, _ in first }
      // Taken out of the part rather than merged: the merge copied each workout twice,
      // each copy retaining every reference in it (its logs, strings, time zone: memory
      // not touched since it was folded) and each release letting them go again. Taken
      // out and consumed, a workout is moved, not copied.
      while let (id, workout) = part.workouts.popFirst() { state.workouts[id] = consume workout }
      state.eventCount += part.eventCount
      if let now = part.now, state.now.map({ now > $0 }) ?? true { state.now = now }
    }
  }

  /// The state of every part added.
  func take() -> JournalState {
    lock.withLock {
      // The anomalies of one event are in one part, in order.
      anomalies.sort { ($0.cause, $0.order) < ($1.cause, $1.order) }
      var combined = JournalState()
      swap(&combined, &state)
      combined.anomalies = anomalies.map(\.anomaly)
      anomalies = []
      return combined
    }
  }
}

/// Memory handed to the tasks of a concurrent loop: the history, read by every task and
/// written by none, or the parts being dealt, each written by the task of its chunk.
private struct Shared<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) { self.value = value }
}

/// The results of a concurrent loop's tasks, each written by its own task once.
private final class ChunkResults<Result: Sendable>: @unchecked Sendable {
  private var results: [Result?]
  private let lock = NSLock()

  init(count: Int) { results = Array(repeating: nil, count: count) }

  func store(_ result: Result, at index: Int) {
    lock.withLock { results[index] = result }
  }

  /// The results, moved out, in order.
  func take() -> [Result] {
    lock.withLock {
      let done = results.compactMap { $0 }
      precondition(done.count == results.count, "every task is done")
      results = []
      return done
    }
  }
}
