import Foundation
import JournalProjections

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal `journal run` draws on: raw mode through termios, restored on every way out.
///
/// - Raw mode (no echo, keys as typed) is entered by ``enter()`` and left by ``restore()``,
///   which the normal exit calls, and so do an `atexit` handler and the handlers of SIGINT,
///   SIGTERM, SIGHUP and of the crash signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT,
///   SIGFPE); those then raise the signal again with its default action, so the exit status
///   still says what happened.
/// - SIGWINCH writes a byte to a pipe that ``nextKey(timeout:)`` polls with standard input:
///   the loop wakes and redraws at the new size.
/// - Only async-signal-safe calls (`tcsetattr`, `write`, `signal`, `raise`) run in a handler.
final class Terminal {
  /// Whether standard input and standard output are both terminals.
  static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

  private var pending: [UInt8] = []

  /// Enters raw mode on the alternate screen with the cursor hidden, and installs the
  /// handlers that undo it.
  ///
  /// - Throws: ``CommandError`` when the terminal's settings cannot be read or changed.
  init() throws {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else {
      throw CommandError("cannot read the terminal's settings (errno \(errno))")
    }
    TerminalState.original = original
    var fds: [Int32] = [0, 0]
    if pipe(&fds) == 0 {
      TerminalState.wakeRead = fds[0]
      TerminalState.wakeWrite = fds[1]
      _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
      _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
    }
    var handled = sigset_t()
    sigemptyset(&handled)
    for signal in TerminalState.fatalSignals {
      _ = Self.install(signal, terminalSignalHandler)
      sigaddset(&handled, signal)
    }
    _ = Self.install(SIGWINCH, terminalResizeHandler)
    sigaddset(&handled, SIGWINCH)
    // A mask inherited from the parent would hold them back: Ctrl-C must reach the handler.
    _ = sigprocmask(SIG_UNBLOCK, &handled, nil)
    atexit { TerminalState.restore() }
    var raw = original
    // Keys as typed, unechoed; the signal keys (Ctrl-C) still signal, and output is
    // processed as usual.
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
      throw CommandError("cannot put the terminal in raw mode (errno \(errno))")
    }
    TerminalState.isRaw = true
    TerminalState.write(TerminalState.enterScreen)
  }

  /// Leaves raw mode and the alternate screen; safe to call more than once.
  func restore() { TerminalState.restore() }

  /// The window's size, in columns and rows; 80×24 when it cannot be read.
  var size: (width: Int, height: Int) {
    var window = winsize()
    #if canImport(Glibc)
    let request = UInt(TIOCGWINSZ)
    #else
    let request = TIOCGWINSZ
    #endif
    guard ioctl(STDOUT_FILENO, request, &window) == 0, window.ws_col > 0, window.ws_row > 0
    else { return (80, 24) }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  /// Draws `lines` from the top left, each line cleared to its end.
  func draw(_ lines: [String], bells: Int) {
    var text = "\u{1B}[H"
    for (index, line) in lines.enumerated() {
      text += line + "\u{1B}[K" + (index < lines.count - 1 ? "\r\n" : "")
    }
    text += "\u{1B}[J" + String(repeating: "\u{07}", count: bells)
    TerminalState.write(Array(text.utf8))
  }

  /// Waits up to `timeout` seconds for a key.
  ///
  /// - Returns: the key, `.resized` when the window changed, or nil when the time is up.
  func nextKey(timeout: TimeInterval) -> TerminalEvent? {
    if let key = takeKey() { return .key(key) }
    var fds = [
      pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
      pollfd(fd: TerminalState.wakeRead, events: Int16(POLLIN), revents: 0),
    ]
    let count = poll(&fds, nfds_t(TerminalState.wakeRead >= 0 ? 2 : 1), Int32(timeout * 1000))
    guard count > 0 else { return nil }
    if fds[1].revents & Int16(POLLIN) != 0 {
      var byte: UInt8 = 0
      while read(TerminalState.wakeRead, &byte, 1) == 1 {}
      return .resized
    }
    if fds[0].revents & Int16(POLLIN) != 0 {
      var buffer = [UInt8](repeating: 0, count: 64)
      let n = read(STDIN_FILENO, &buffer, buffer.count)
      if n <= 0 { return .closed }
      pending += buffer.prefix(n)
    } else if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
      return .closed
    }
    return takeKey().map(TerminalEvent.key)
  }

  /// The first key in the bytes read: Enter, the arrows, or a character.
  private func takeKey() -> RunKey? {
    guard let first = pending.first else { return nil }
    if first == 0x1B {
      if pending.count >= 3, pending[1] == UInt8(ascii: "[") {
        let code = pending[2]
        pending.removeFirst(3)
        switch code {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        default: return takeKey()
        }
      }
      pending.removeFirst()
      return takeKey()
    }
    if first == 0x0D || first == 0x0A {
      pending.removeFirst()
      return .enter
    }
    // One UTF-8 character.
    let length = first < 0x80 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
    guard pending.count >= length else { return nil }
    let bytes = pending.prefix(length)
    pending.removeFirst(length)
    guard let character = String(bytes: bytes, encoding: .utf8)?.first else { return takeKey() }
    return .character(character)
  }

  private static func install(
    _ signal: Int32,
    _ handler: @convention(c) (Int32) -> Void
  ) -> Bool {
    #if canImport(Glibc)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    #else
    var action = sigaction()
    action.__sigaction_u.__sa_handler = handler
    #endif
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    return sigaction(signal, &action, nil) == 0
  }
}

/// What waiting for a key can give.
enum TerminalEvent: Hashable {
  case key(RunKey)
  case resized
  /// Standard input was closed.
  case closed
}

/// What a signal handler needs, set before the handlers are installed and read-only after:
/// a handler cannot capture context.
private enum TerminalState {
  nonisolated(unsafe) static var original = termios()
  nonisolated(unsafe) static var isRaw = false
  nonisolated(unsafe) static var wakeRead: Int32 = -1
  nonisolated(unsafe) static var wakeWrite: Int32 = -1

  static let fatalSignals = [
    SIGINT, SIGTERM, SIGHUP, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE,
  ]

  /// The alternate screen, the cursor hidden, the screen cleared.
  static let enterScreen = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J".utf8)
  /// The cursor shown, the main screen back.
  static let leaveScreen = Array("\u{1B}[?25h\u{1B}[?1049l".utf8)

  static func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = Glue.write(
          STDOUT_FILENO,
          buffer.baseAddress.map { $0 + offset },
          buffer.count - offset
        )
        if n <= 0 { break }
        offset += n
      }
    }
  }

  /// Leaves raw mode and the alternate screen (async-signal-safe).
  static func restore() {
    guard isRaw else { return }
    isRaw = false
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    write(leaveScreen)
  }
}

/// The C calls whose Swift names the types above shadow.
private enum Glue {
  static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, bytes, count)
    #else
    Darwin.write(fd, bytes, count)
    #endif
  }
}

private func terminalSignalHandler(_ signal: Int32) {
  TerminalState.restore()
  resetToDefault(signal)
  _ = raise(signal)
}

private func terminalResizeHandler(_ signal: Int32) {
  var byte: UInt8 = 1
  _ = Glue.write(TerminalState.wakeWrite, &byte, 1)
}

/// Puts `signal` back to its default action.
private func resetToDefault(_ signal: Int32) {
  #if canImport(Glibc)
  _ = Glibc.signal(signal, SIG_DFL)
  #else
  _ = Darwin.signal(signal, SIG_DFL)
  #endif
}
