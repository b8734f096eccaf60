import Foundation
import JournalProjections

/// The sample's wall clock: the story's "now", moved by the generator and
/// read by the device writers instead of the system clock.
final class SampleClock: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Int64

  init(milliseconds: Int64) { value = milliseconds }

  /// Unix milliseconds.
  var milliseconds: Int64 {
    get {
      lock.lock()
      defer { lock.unlock() }
      return value
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      value = newValue
    }
  }

  var date: Date { Date(milliseconds: milliseconds) }

  /// Moves the clock on; it never goes back.
  func advance(seconds: Int) { milliseconds += Int64(seconds) * 1000 }

  /// Sets the clock to `target` unless it is already past it.
  func move(to target: Int64) { milliseconds = max(milliseconds, target) }
}

/// Days and local times of the story, computed without the machine's time
/// zone or calendar: day 0 is Monday 2026-06-01, and the two zones the lifter
/// trains in have their 2026 offsets written out.
enum SampleCalendar {
  /// 2026-06-01T00:00:00Z.
  static let firstDay: Int64 = 1_780_272_000
  /// 2026-10-31, the last day of the story.
  static let lastDay = 152
  /// When Berlin leaves summer time in 2026: 2026-10-25T01:00:00Z.
  static let berlinWinterTime: Int64 = 1_792_890_000

  /// Where a session happens.
  enum Zone: Sendable {
    case berlin
    case newYork

    var identifier: String {
      switch self {
      case .berlin: "Europe/Berlin"
      case .newYork: "America/New_York"
      }
    }
  }

  /// The day number of a date of 2026 (June to October).
  static func day(month: Int, _ day: Int) -> Int {
    let monthStarts = [6: 0, 7: 30, 8: 61, 9: 92, 10: 122, 11: 153]
    return (monthStarts[month] ?? 0) + day - 1
  }

  /// 0 Monday … 6 Sunday.
  static func weekday(_ day: Int) -> Int { day % 7 }

  /// Unix milliseconds of `minute` past local midnight of `day` in `zone`.
  static func milliseconds(day: Int, minute: Int, zone: Zone) -> Int64 {
    let local = firstDay + Int64(day) * 86_400 + Int64(minute) * 60
    switch zone {
    case .newYork:
      return (local + 4 * 3600) * 1000  // EDT, UTC-4, all summer and autumn
    case .berlin:
      let summer = local - 2 * 3600  // CEST, UTC+2
      return (summer < berlinWinterTime ? summer : local - 3600) * 1000
    }
  }
}
