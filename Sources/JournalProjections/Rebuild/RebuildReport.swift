import Foundation

/// What a rebuild did to the output folder.
///
/// Paths are relative to the output folder and sorted. A report with
/// ``conflicts`` describes a rebuild that finished but left some documents as
/// they were; the command exits with a failure status for it.
public struct RebuildReport: Sendable, Hashable {
  /// What was folded.
  public enum Mode: Sendable, Hashable {
    /// Every stream: the whole history replayed, or every stream of the saved state.
    case full
    /// Only the streams of the saved state that changed since the last rebuild.
    case incremental
  }

  /// A document the rebuild wanted to write or remove but left alone.
  public struct Conflict: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
  }

  /// Seconds spent in each phase, from a monotonic clock; reporting only.
  public struct Timings: Sendable, Hashable {
    /// Choosing the streams and folding their events.
    public var fold: Double = 0
    /// Rendering and encoding the documents.
    public var encode: Double = 0
    /// Comparing with the disk, writing, removing, and the manifest.
    public var write: Double = 0
    /// Saving the record of the saved state the folder was rebuilt from.
    public var record: Double = 0

    public init() {}
  }

  public var mode: Mode = .full
  /// Why a rebuild from the saved state folded every stream although the folder had been
  /// rebuilt before (its record is damaged or does not match the state); nil otherwise.
  public var foldedEveryStreamBecause: String?
  /// Events folded by this run (those of the changed streams when incremental).
  public var eventsFolded = 0
  /// Documents written because their bytes changed or were missing.
  public var written: [String] = []
  /// Documents rendered whose bytes were already on disk.
  public var unchangedCount = 0
  /// Documents removed: deleted, or past their stub's grace.
  public var removed: [String] = []
  /// Files already on disk with the right bytes, now owned by the rebuild.
  public var adopted: [String] = []
  /// Documents of quarantined streams, left exactly as they are.
  public var keptQuarantined: [String] = []
  /// Documents left alone because writing or removing them was not safe.
  public var conflicts: [Conflict] = []
  /// Anomalies of the fold up to the rebuilt point.
  public var anomalyCount = 0
  /// Streams this build cannot read, with the reason: their documents are left as they are.
  public var quarantined: [String: String] = [:]
  /// Things worth saying that are not conflicts: an unreadable manifest or part of it.
  public var notices: [String] = []
  /// Temporary files of an interrupted rebuild that this run removed.
  public var cleanedTemporaryFiles = 0
  public var timings = Timings()

  public init() {}

  /// Whether some document was left alone: the command then fails.
  public var hasConflicts: Bool { !conflicts.isEmpty }
}

/// How a rebuild runs, beyond what it rebuilds.
public struct RebuildOptions: Sendable {
  /// A monotonic reading for the timings; `ContinuousClock` by default.
  public var elapsed: @Sendable () -> Duration
  /// Test seam: fail as if killed after this many document writes, leaving the
  /// next write's temporary file behind.
  public var _failAfterWrites: Int?

  public init(elapsed: (@Sendable () -> Duration)? = nil) {
    if let elapsed {
      self.elapsed = elapsed
    } else {
      let origin = ContinuousClock.now
      self.elapsed = { origin.duration(to: ContinuousClock.now) }
    }
  }
}

/// A rebuild that could not run or finish.
///
/// The description is for people and is not API.
public struct RebuildError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, as an open set of kinds.
  public struct Kind: RawRepresentable, Sendable, Hashable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A system call failed.
    public static let io = Kind(rawValue: "io")
    /// The output folder, or a file the rebuild keeps there, is not usable.
    public static let unusableOutput = Kind(rawValue: "unusableOutput")
    /// A document could not be encoded.
    public static let encoding = Kind(rawValue: "encoding")
    /// Another rebuild holds the folder's lock.
    public static let busy = Kind(rawValue: "busy")
    /// The test seam stopped the rebuild.
    public static let interrupted = Kind(rawValue: "interrupted")
  }

  public var kind: Kind
  /// The file concerned, relative to the output folder when inside it.
  public var path: String
  public var message: String

  public init(_ kind: Kind, path: String, _ message: String) {
    self.kind = kind
    self.path = path
    self.message = message
  }

  public var description: String { "\(path): error: \(message)" }
}
