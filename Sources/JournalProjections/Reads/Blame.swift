import Foundation
import JournalCore

/// Which event last changed each field of a document.
///
/// Blame watches the one fold (`fold(_:upTo:observe:)`):
/// after each event that can change the document, it renders the document
/// as the tree would write it, compares the leaves with the previous
/// rendering, and credits every changed or new leaf to that event. Events
/// cancelled by a revert in effect are not folded, so they are never blamed.
///
/// ```swift
/// let lines = try Blame.lines(
///   path: "Workouts/2026/03/01J….json", field: "/logs/0/setEntries/1/weight",
///   history: journal.history)
/// print(lines[0].event.device)  // "phone"
/// ```
public enum Blame {
  /// The event credited with a field.
  public struct Credit: Sendable, Hashable {
    public var eventID: String
    public var type: String
    public var device: String
    /// When the action happened.
    public var at: Date
    /// When it was recorded.
    public var recordedAt: Date

    init(_ e: FoldEvent) {
      eventID = e.id
      type = e.event.typeName
      device = e.device
      at = e.at
      recordedAt = e.recordedAt
    }
  }

  /// One field of the document and the event that gave it its value.
  public struct Line: Sendable, Hashable {
    public var pointer: String
    public var value: JSONValue
    public var credit: Credit
  }

  /// The fields of the document at `path` (within `field`, a JSON pointer,
  /// when given), each with the event that last changed it.
  ///
  /// - Parameters:
  ///   - path: the document's path in the tree, e.g. `Splits/<id>.json`.
  ///   - field: a JSON pointer; nil or empty for the whole document.
  ///   - history: the journal's history.
  ///   - point: blame the document as it was then.
  /// - Returns: lines in pointer order.
  /// - Throws: ``CommandError`` when there is no such document or field.
  /// - Complexity: one fold, plus one rendering of the document per event
  ///   of its stream.
  package static func lines(
    path: String,
    field: String? = nil,
    history: [FoldEvent],
    upTo point: Replayer.Point? = nil
  ) throws -> [Line] {
    try lines(path: path, field: field, history: history, upTo: point, now: nil)
  }

  /// ``lines(path:field:history:upTo:)`` over part of the history that holds every event of
  /// the document's stream and what its fold reads (``Journal/blame(path:field:upTo:)``),
  /// with `now`, the fold's `now` over the whole history, which decides what the grace
  /// periods leave of the document.
  static func lines(
    path: String,
    field: String?,
    history: [FoldEvent],
    upTo point: Replayer.Point?,
    now: Date?
  ) throws -> [Line] {
    guard let target = DocumentTarget(path: path) else {
      throw CommandError(
        "'\(path)' is not a document path",
        hint: "use 'Splits/<id>.json', 'Workouts/YYYY/MM/<id>.json' or 'Stubs/…'"
      )
    }
    var current = DocumentFields(leaves: [:])
    var credits: [String: Credit] = [:]
    var failure: (any Error)?
    var final = Replayer.fold(history, upTo: point) { e, before, after in
      guard failure == nil, mayChange(target, e, before) else { return }
      do {
        let rendered =
          try after.renderedDocument(at: path).map(DocumentFields.init) ?? .init(leaves: [:])
        for change in DocumentFields.changes(from: current, to: rendered) {
          credits[change.pointer] = change.after == nil ? nil : Credit(e)
        }
        current = rendered
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    if let now, final.now.map({ now > $0 }) ?? true { final.now = now }
    // The fold's "now" may have moved past a grace period since the last event of the stream.
    guard let bytes = try final.renderedDocument(at: path) else {
      throw CommandError(
        "no document at '\(path)'",
        hint: "a workout's path uses the month of its start in its own time zone"
      )
    }
    let fields = try DocumentFields(bytes)
    let selected = fields.leaves.keys.filter { DocumentFields.pointer($0, isWithin: field ?? "") }
    guard !selected.isEmpty else {
      throw CommandError("no field '\(field ?? "")' in '\(path)'")
    }
    return selected.sorted(by: DocumentFields.pointerOrder).compactMap { pointer in
      guard let value = fields.leaves[pointer], let credit = credits[pointer] else { return nil }
      return Line(pointer: pointer, value: value, credit: credit)
    }
  }

  /// Whether folding `e` can change the rendering of `target`: events of its
  /// stream, the splits order for a split, and any event while a workout
  /// holds log tombstones (they expire as the fold's "now" moves).
  static func mayChange(_ target: DocumentTarget, _ e: FoldEvent, _ before: JournalState) -> Bool {
    if e.stream == target.stream { return true }
    if target.isSplit { return e.stream == "splits" }
    return before.workouts[target.id]?.document.deletedLogIDs != nil
  }
}
