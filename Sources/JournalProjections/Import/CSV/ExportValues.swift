import Foundation

/// A file refused whole: not an export this build reads, or one it may not import as asked.
public struct HistoryImportError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  /// What to do about it.
  public var hint: String?

  public init(_ message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }

  public var description: String { message }
}

/// The values of an export's cells: dates, durations and numbers as the trackers write them.
///
/// Every reader is strict and total: a cell is read, or it is refused with a reason; nothing
/// is guessed.
enum ExportValues {
  /// A local date and time, before a time zone places it.
  struct LocalTime: Sendable, Hashable {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// An offset the text gave (`Z`, `+02:00`), in seconds east of UTC.
    var offset: Int?
  }

  /// A date as Strong and Hevy write them, or nil.
  ///
  /// - `2026-04-08 16:50:12`, `2026-04-08 16:50`, `2026-04-08T16:50:12`, with an optional
  ///   `Z` or `±hh:mm` offset, and an optional `AM`/`PM` (after a space, a no-break space or
  ///   a narrow no-break space);
  /// - `8 Apr 2026, 16:50` and `Apr 8, 2026, 4:50 PM`, with English, German or French month
  ///   names (full or abbreviated, with or without a dot).
  static func localTime(_ text: String) -> LocalTime? {
    let cleaned = text.replacingOccurrences(of: "\u{202F}", with: " ")
      .replacingOccurrences(of: "\u{00A0}", with: " ")
      .trimmingCharacters(in: .whitespaces)
    guard !cleaned.isEmpty else { return nil }
    var body = Substring(cleaned)
    // AM / PM
    var meridiem: Int?
    let upper = body.uppercased()
    if upper.hasSuffix("AM") || upper.hasSuffix("PM") {
      meridiem = upper.hasSuffix("AM") ? 0 : 12
      body = body.dropLast(2)
      while body.last == " " || body.last == "." { body = body.dropLast() }
    }
    var parts: LocalTime?
    if let first = body.first, first.isNumber, body.count >= 10,
      body[body.index(body.startIndex, offsetBy: 4)] == "-"
    {
      parts = isoLike(body)
    } else {
      parts = named(body)
    }
    guard var time = parts else { return nil }
    if let meridiem {
      guard (1...12).contains(time.hour), time.offset == nil else { return nil }
      time.hour = time.hour % 12 + meridiem
    }
    guard (1...12).contains(time.month), (1...31).contains(time.day), (0...23).contains(time.hour),
      (0...59).contains(time.minute), (0...60).contains(time.second),
      (1900...2999).contains(time.year)
    else { return nil }
    return time
  }

  /// `yyyy-MM-dd[ T]HH:mm[:ss][.fff][Z|±hh:mm]`.
  private static func isoLike(_ text: Substring) -> LocalTime? {
    let chars = Array(text)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= chars.count else { return nil }
      let digits = chars[range]
      guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
      return Int(String(digits))
    }
    guard let year = number(0..<4), chars[4] == "-", let month = number(5..<7), chars[7] == "-",
      let day = number(8..<10)
    else { return nil }
    guard chars.count > 10 else { return nil }
    guard chars[10] == " " || chars[10] == "T" else { return nil }
    // The hour may have one digit (`4:50:12 PM`).
    var index = 11
    var hourDigits = 0
    while index + hourDigits < chars.count, chars[index + hourDigits].isNumber,
      hourDigits < 2
    {
      hourDigits += 1
    }
    guard hourDigits > 0, let hour = number(index..<index + hourDigits) else { return nil }
    index += hourDigits
    guard index < chars.count, chars[index] == ":", let minute = number(index + 1..<index + 3)
    else { return nil }
    index += 3
    var second = 0
    if index < chars.count, chars[index] == ":" {
      guard let s = number(index + 1..<index + 3) else { return nil }
      second = s
      index += 3
      if index < chars.count, chars[index] == "." {
        index += 1
        while index < chars.count, chars[index].isNumber { index += 1 }
      }
    }
    var offset: Int?
    while index < chars.count, chars[index] == " " { index += 1 }
    if index < chars.count {
      if chars[index] == "Z", index + 1 == chars.count {
        offset = 0
      } else if chars[index] == "+" || chars[index] == "-" {
        let sign = chars[index] == "+" ? 1 : -1
        let rest = String(chars[(index + 1)...]).replacingOccurrences(of: ":", with: "")
        guard rest.count == 4, let value = Int(rest), value % 100 < 60, value / 100 <= 14 else {
          return nil
        }
        offset = sign * ((value / 100) * 3600 + (value % 100) * 60)
      } else {
        return nil
      }
    }
    return LocalTime(
      year: year,
      month: month,
      day: day,
      hour: hour,
      minute: minute,
      second: second,
      offset: offset
    )
  }

  /// `8 Apr 2026, 16:50` or `Apr 8, 2026, 4:50`.
  private static func named(_ text: Substring) -> LocalTime? {
    let pieces = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    guard pieces.count == 4 else { return nil }
    var day: Int?
    var month: Int?
    if let d = Int(pieces[0].trimmingCharacters(in: ["."])), let m = monthNumber(pieces[1]) {
      (day, month) = (d, m)
    } else if let m = monthNumber(pieces[0]), let d = Int(pieces[1]) {
      (day, month) = (d, m)
    }
    guard let day, let month, pieces[2].count == 4, let year = Int(pieces[2]) else { return nil }
    let clock = pieces[3].split(separator: ":")
    guard clock.count == 2 || clock.count == 3, clock.allSatisfy({ !$0.isEmpty && $0.count <= 2 }),
      let hour = Int(clock[0]), let minute = Int(clock[1])
    else { return nil }
    let second = clock.count == 3 ? Int(clock[2]) : 0
    guard let second else { return nil }
    return LocalTime(
      year: year,
      month: month,
      day: day,
      hour: hour,
      minute: minute,
      second: second,
      offset: nil
    )
  }

  /// A month's number from its English, German or French name, abbreviated or not.
  static func monthNumber(_ name: String) -> Int? {
    let key = name.lowercased().trimmingCharacters(in: ["."])
    guard !key.isEmpty else { return nil }
    return monthNames[key]
  }

  private static let monthNames: [String: Int] = {
    let lists: [[String]] = [
      ["jan", "january", "januar", "janv", "janvier"],
      ["feb", "february", "februar", "févr", "fevr", "février"],
      ["mar", "march", "mär", "mrz", "märz", "mars"],
      ["apr", "april", "avr", "avril"],
      ["may", "mai"],
      ["jun", "june", "juni", "juin"],
      ["jul", "july", "juli", "juil", "juillet"],
      ["aug", "august", "août", "aout"],
      ["sep", "sept", "september", "septembre"],
      ["oct", "october", "okt", "oktober", "octobre"],
      ["nov", "november", "novembre"],
      ["dec", "december", "dez", "dezember", "déc", "décembre"],
    ]
    var names: [String: Int] = [:]
    for (index, list) in lists.enumerated() { for name in list { names[name] = index + 1 } }
    return names
  }()

  /// `time`'s wall-clock reading counted in milliseconds from 1970-01-01 00:00, whatever
  /// the zone: the same local time gives the same number on every machine.
  static func wallClockMilliseconds(_ time: LocalTime) -> Int64 {
    // Days from 1970-01-01 to the date, in the proleptic Gregorian calendar.
    let y = Int64(time.month <= 2 ? time.year - 1 : time.year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let month = Int64(time.month)
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + Int64(time.day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + Int64(time.hour * 3600 + time.minute * 60 + time.second)
    return seconds * 1000
  }

  /// The instant of `time` in `zone` (the text's own offset wins).
  ///
  /// A time a daylight-saving change skips reads as the calendar places it (an hour later).
  static func date(_ time: LocalTime, in zone: TimeZone) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = time.offset.flatMap { TimeZone(secondsFromGMT: $0) } ?? zone
    let components = DateComponents(
      year: time.year,
      month: time.month,
      day: time.day,
      hour: time.hour,
      minute: time.minute,
      second: time.second
    )
    // A day the month does not have (`2026-02-30`) is refused, not rolled over.
    guard let date = calendar.date(from: components),
      calendar.component(.day, from: date) == time.day
    else { return nil }
    return date
  }

  /// A duration as Strong writes it: `1h 5m`, `54m`, `45s`, `2h`; nil when it is not one.
  static func duration(_ text: String) -> Int? {
    let trimmed = text.trimmedOfSpaces
    if trimmed.isEmpty { return 0 }
    if let seconds = Int(trimmed), seconds >= 0 { return seconds }
    var total = 0
    var digits = ""
    var sawUnit = false
    for char in trimmed {
      if char.isASCII, char.isNumber {
        digits.append(char)
      } else if char == " " {
        continue
      } else {
        guard let value = Int(digits) else { return nil }
        switch char {
        case "h": total += value * 3600
        case "m": total += value * 60
        case "s": total += value
        default: return nil
        }
        digits = ""
        sawUnit = true
      }
    }
    guard digits.isEmpty, sawUnit, total <= 7 * 86_400 else { return nil }
    return total
  }

  /// A number cell: `62.5`, `10.0`, `-1`, and `62,5` in a semicolon-separated file.
  ///
  /// An empty cell is nil; `NaN`, infinities and anything else are refused.
  static func number(_ text: String, decimalComma: Bool) -> Result<Double?, ValueError> {
    var trimmed = text.trimmedOfSpaces
    if trimmed.isEmpty { return .success(nil) }
    if decimalComma, !trimmed.contains("."), trimmed.count(where: { $0 == "," }) == 1 {
      trimmed = trimmed.replacingOccurrences(of: ",", with: ".")
    }
    // Only a cell with letters can spell NaN or an infinity.
    if trimmed.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 != UInt8(ascii: "e") }) {
      let word = trimmed.lowercased().trimmingCharacters(in: ["+", "-"])
      if word == "nan" || word == "inf" || word == "infinity" {
        return .failure(ValueError("'\(text)' is not a finite number"))
      }
    }
    guard trimmed.allSatisfy({ numberCharacters.contains($0) }), let value = Double(trimmed) else {
      return .failure(ValueError("'\(text)' is not a number"))
    }
    guard value.isFinite else { return .failure(ValueError("'\(text)' is not a finite number")) }
    return .success(value)
  }

  /// The characters a number cell may hold (after a decimal comma became a point).
  private static let numberCharacters = Set("0123456789.-+eE")

  /// Why a cell was refused.
  struct ValueError: Error, Sendable, Hashable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
  }
}

extension String {
  /// The string without the spaces at either end that `CharacterSet.whitespaces` names.
  ///
  /// Most cells have none and end in ASCII: those are returned as they are, without
  /// Foundation's trimming, which bridges every string (a fifth of an import's time).
  var trimmedOfSpaces: String {
    guard let first = utf8.first, let last = utf8.last else { return self }
    func plain(_ byte: UInt8) -> Bool { byte != 0x20 && byte != 0x09 && byte < 0x80 }
    if plain(first), plain(last) { return self }
    return trimmingCharacters(in: .whitespaces)
  }
}
