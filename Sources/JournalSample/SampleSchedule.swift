import JournalProjections

/// Something that happens in one particular session of the story, so that
/// every feature the sample promises appears whatever the seed.
enum SampleScene: CaseIterable, Sendable {
  /// Sets recorded on the watch, in the first app version.
  case legacyWatch
  /// Exercises skipped, in the first app version.
  case legacySkip
  /// A log started over, in the first app version (`log.reset` v1).
  case legacyReset
  /// A workout ended early keeping progress, before per-set actuals.
  case legacyEndEarly
  /// The watch records; the phone corrects a miscounted set afterwards.
  case watchCorrected
  /// One More on the main lift.
  case oneMore
  /// A typo on the phone, undone and entered again.
  case undoTypo
  /// Short on time: ended keeping progress.
  case endEarly
  /// An exercise abandoned after one set.
  case skipPartial
  /// Sets recorded on the wrong exercise, which is then reset.
  case resetWrongExercise
  /// New York hotel gym: a different machine (plan edited mid-workout).
  case hotelGym
  /// Jet lag: starts at 23:40 New York time on August 31 and ends in September.
  case crossMidnight
  /// "End" tapped too early: undone, and the workout goes on.
  case undoEnd
  /// Logged the next morning from memory (`--at`).
  case backDated
  /// The watch's undo, then redo: the set was right after all.
  case undoRedo
  /// The wrong split started, then deleted.
  case mistakenStart
  /// Deadlifts removed (lower back), back extensions added instead.
  case removedLog

  /// The first day the scene may happen on.
  var earliestDay: Int {
    switch self {
    case .legacyWatch: 2
    case .legacySkip: 4
    case .legacyReset: 7
    case .legacyEndEarly: 16
    case .watchCorrected: SampleCalendar.day(month: 7, 1)
    case .oneMore: SampleCalendar.day(month: 7, 8)
    case .undoTypo: SampleCalendar.day(month: 7, 15)
    case .endEarly: SampleCalendar.day(month: 7, 29)
    case .skipPartial: SampleCalendar.day(month: 8, 12)
    case .resetWrongExercise: SampleCalendar.day(month: 8, 19)
    case .hotelGym: SampleCalendar.day(month: 8, 29)
    case .crossMidnight: SampleCalendar.day(month: 8, 31)
    case .undoEnd: SampleCalendar.day(month: 9, 10)
    case .backDated: SampleCalendar.day(month: 9, 23)
    case .undoRedo: SampleCalendar.day(month: 10, 8)
    case .mistakenStart: SampleCalendar.day(month: 10, 14)
    case .removedLog: SampleCalendar.day(month: 10, 19)
    }
  }

  /// The split the scene needs, if any.
  var split: Int? {
    switch self {
    case .legacyReset, .hotelGym, .removedLog: 1
    case .undoTypo, .resetWrongExercise, .oneMore: 0
    default: nil
    }
  }
}

/// One planned training session.
struct SampleSession {
  var day: Int
  /// Local minutes after midnight.
  var minute: Int
  var zone: SampleCalendar.Zone = .berlin
  var split = 0
  var scene: SampleScene?

  /// The first weeks were recorded by older app versions.
  var era: SampleEra {
    day < SampleEra.secondVersionDay
      ? .firstVersion : day < SampleEra.currentDay ? .secondVersion : .current
  }
}

/// Which app version recorded a session: decides the event versions written.
enum SampleEra: Sendable {
  /// Split schema 1, workout schema 2: exercises with `category` and weight
  /// reminders, whole weights, the per-log `completed` flag, no actuals.
  case firstVersion
  /// Split schema 2, workout schema 3: machine settings, still whole weights
  /// and no actuals.
  case secondVersion
  /// Today's events, written through ``Journal``.
  case current

  static let secondVersionDay = 14
  static let currentDay = 28
  /// The day the app began writing `set.completed` v3.
  ///
  /// From then on the sessions the phone records say when each set began, as `journal run`
  /// records them, so the timing reads have real data; the watch's sets leave the start
  /// unknown (null). Before it, sets are stored at v2.
  static let flowDay = 124
}

extension SampleSession {
  /// Five months of sessions: a fixed routine for the two legacy fortnights,
  /// then three or four sessions a week with misses, a business trip to New
  /// York (August 27 to September 3), and the scenes placed on the first
  /// fitting session.
  static func schedule(random: inout SampleRandom) -> [SampleSession] {
    var sessions: [SampleSession] = []
    for day in [0, 2, 4, 6, 7, 9, 11, 13, 14, 16, 18, 20, 21, 23, 25, 27] {
      sessions.append(SampleSession(day: day, minute: startMinute(day, &random)))
    }
    let trip = SampleCalendar.day(month: 8, 27)...SampleCalendar.day(month: 9, 3)
    for week in 4...21 {
      let days = random.chance(25) ? [1, 3, 5] : [0, 2, 4] + (random.chance(45) ? [6] : [])
      for weekday in days {
        let day = week * 7 + weekday
        guard day <= SampleCalendar.lastDay, !trip.contains(day), !random.chance(8) else {
          continue
        }
        sessions.append(SampleSession(day: day, minute: startMinute(day, &random)))
      }
    }
    sessions.append(
      SampleSession(
        day: SampleScene.hotelGym.earliestDay,
        minute: 9 * 60 + 30,
        zone: .newYork,
        scene: .hotelGym
      )
    )
    sessions.append(
      SampleSession(
        day: SampleScene.crossMidnight.earliestDay,
        minute: 23 * 60 + 40,
        zone: .newYork,
        scene: .crossMidnight
      )
    )
    sessions.sort { $0.day < $1.day }
    for scene in SampleScene.allCases where scene != .hotelGym && scene != .crossMidnight {
      let legacy = scene.earliestDay < SampleEra.currentDay
      if let index = sessions.firstIndex(where: {
        $0.day >= scene.earliestDay && $0.scene == nil && $0.zone == .berlin
          && ($0.era != .current) == legacy
      }) {
        sessions[index].scene = scene
      }
    }
    var next = 0
    for index in sessions.indices {
      let split = sessions[index].scene?.split ?? next
      sessions[index].split = split
      next = (split + 1) % 3
    }
    return sessions
  }

  /// Evenings on weekdays, late mornings at weekends.
  private static func startMinute(_ day: Int, _ random: inout SampleRandom) -> Int {
    SampleCalendar.weekday(day) < 5
      ? random.int((17 * 60 + 30)...(19 * 60 + 30)) : random.int((9 * 60 + 30)...(11 * 60))
  }
}
