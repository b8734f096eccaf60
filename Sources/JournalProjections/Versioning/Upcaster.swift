import JournalCore

/// One frozen step that lifts a stored payload from one version to the next.
///
/// A step works on the raw payload, never on today's Swift types, so it keeps
/// meaning what it meant when it shipped. It may rename the type, drop the
/// event (return no events) or split it into several; every event it returns
/// is at version `from + 1`.
struct UpcastStep: Sendable {
  var type: String
  var from: Int
  var summary: String
  var transform: @Sendable (JSONValue) -> [(type: String, payload: JSONValue)]

  init(
    type: String,
    from: Int,
    summary: String,
    transform: @escaping @Sendable (JSONValue) -> [(type: String, payload: JSONValue)]
  ) {
    self.type = type
    self.from = from
    self.summary = summary
    self.transform = transform
  }
}

/// The registry of steps, checked when built: for every type, versions from
/// its first stored version up to its current one chain without gaps or
/// duplicates, and no step leads past a type's current version.
struct Upcaster: Sendable {
  /// An event this build cannot read: its stream must be quarantined.
  struct Unreadable: Error, Sendable, Hashable, CustomStringConvertible {
    var type: String
    var version: Int
    var reason: String
    var description: String { reason }
  }

  private let steps: [String: [Int: UpcastStep]]
  let currentVersions: [String: Int]

  /// Builds and validates the registry.
  ///
  /// - Throws: a description of the first inconsistency.
  init(steps list: [UpcastStep], currentVersions: [String: Int]) throws(RegistryError) {
    var steps: [String: [Int: UpcastStep]] = [:]
    for step in list {
      guard steps[step.type]?[step.from] == nil else {
        throw RegistryError(message: "two steps for '\(step.type)' v\(step.from)")
      }
      guard step.from >= 1 else {
        throw RegistryError(message: "step '\(step.type)' from v\(step.from)")
      }
      steps[step.type, default: [:]][step.from] = step
    }
    for (type, byVersion) in steps {
      let current = currentVersions[type]
      let highest = byVersion.keys.max() ?? 0
      if let current {
        guard highest < current else {
          throw RegistryError(
            message: "step '\(type)' v\(highest) reaches past current v\(current)"
          )
        }
        let lowest = byVersion.keys.min() ?? current
        for version in lowest..<current where byVersion[version] == nil {
          throw RegistryError(message: "'\(type)' has no step from v\(version) to v\(version + 1)")
        }
      }
    }
    self.steps = steps
    self.currentVersions = currentVersions
  }

  /// Lifts a stored payload to the current version of its (possibly renamed) type, step by step.
  ///
  /// Steps only go up, so the walk ends.
  ///
  /// - Throws: ``Unreadable`` for an unknown type, a version newer than this
  ///   build knows, or an old version with no step.
  func upcast(
    type: String,
    version: Int,
    payload: JSONValue
  ) throws(Unreadable)
    -> [(type: String, payload: JSONValue)]
  {
    var pending = [(type: type, version: version, payload: payload)]
    var done: [(type: String, payload: JSONValue)] = []
    while let next = pending.popLast() {
      guard let current = currentVersions[next.type] else {
        throw Unreadable(
          type: next.type,
          version: next.version,
          reason: "event type '\(next.type)' is unknown to this build"
        )
      }
      if next.version == current {
        done.append((next.type, next.payload))
        continue
      }
      guard next.version < current else {
        throw Unreadable(
          type: next.type,
          version: next.version,
          reason:
            "event '\(next.type)' has version \(next.version); the highest this build reads is \(current)"
        )
      }
      guard let step = steps[next.type]?[next.version] else {
        throw Unreadable(
          type: next.type,
          version: next.version,
          reason: "event '\(next.type)' version \(next.version) has no upgrade step"
        )
      }
      for produced in step.transform(next.payload).reversed() {
        pending.append((produced.type, next.version + 1, produced.payload))
      }
    }
    return done
  }

  /// Applies the steps of `type` up to version `target` only (for test vectors).
  func upcast(
    type: String,
    version: Int,
    payload: JSONValue,
    upTo target: Int
  )
    -> [(type: String, payload: JSONValue)]
  {
    var events = [(type: type, payload: payload)]
    var version = version
    while version < target {
      events = events.flatMap { event in
        steps[event.type]?[version]?.transform(event.payload) ?? [event]
      }
      version += 1
    }
    return events
  }
}

/// A registry that does not chain.
struct RegistryError: Error, Sendable, CustomStringConvertible {
  var message: String
  var description: String { "upcaster registry: \(message)" }
}
