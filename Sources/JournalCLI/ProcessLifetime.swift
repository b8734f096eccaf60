import Foundation

/// Objects kept alive until the process exits.
///
/// The `journal` binary exits as soon as a command returns. Freeing the journal the command
/// replayed (every event, its strings and the folded state, one object at a time on one
/// thread) would only delay that exit: about a tenth of a second at 100,000 events and a
/// second at a million. Nothing here holds a file open or a lock: a journal's writers are
/// closed after each append, and the process's exit closes everything else.
enum ProcessLifetime {
  private static let kept = Kept()

  /// Keeps `object` until the process exits.
  static func keep(_ object: AnyObject) { kept.append(object) }

  /// How many objects are kept.
  static var count: Int { kept.count }
}

/// The kept objects, behind a lock.
private final class Kept: @unchecked Sendable {
  private var objects: [AnyObject] = []
  private let lock = NSLock()

  func append(_ object: AnyObject) { lock.withLock { objects.append(object) } }

  var count: Int { lock.withLock { objects.count } }
}
