#!/usr/bin/env bash
# Kills a durable appender with SIGKILL thousands of times and checks that every append it
# acknowledged survived and that the journal still opens and verifies.
#
#   Scripts/crash-test.sh [iterations] [journal binary]
#
# The default binary is the debug build's `journal`; build it first (`swift build`).
set -euo pipefail

iterations="${1:-2000}"
binary="${2:-$(swift build --show-bin-path)/journal}"
[[ -x "$binary" ]] || { echo "error: '$binary' not found; run 'swift build' first" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/journal-crash.XXXXXX")"
trap 'rm -rf "$work"' EXIT
journal="$work/journal"
acknowledged=0

for ((i = 1; i <= iterations; i++)); do
  out="$work/out.$i"
  "$binary" _append-loop --journal "$journal" --device phone --count 1000000 >"$out" 2>"$work/err" &
  pid=$!
  # Sleep a random 1-80 ms, then kill without warning.
  sleep "0.0$(printf '%02d' $((RANDOM % 80 + 1)))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  last="$(tail -n 1 "$out" 2>/dev/null || true)"
  if [[ "$last" =~ ^[0-9]+$ ]] && ((last > acknowledged)); then acknowledged=$last; fi
  rm -f "$out"

  # Every acknowledged sequence must be on disk: count the device's complete lines (a kill
  # can leave at most a partial last line, which has no newline yet).
  stored=$( (cat "$journal"/devices/phone/*.jsonl 2>/dev/null || true) | tr -cd '\n' | wc -c)
  if ((stored < acknowledged)); then
    echo "iteration $i: only $stored records stored, $acknowledged acknowledged" >&2
    exit 1
  fi
  if ((i % 100 == 0)); then echo "iteration $i: $acknowledged acknowledged, $stored stored"; fi
done

# The journal opens (a one-event append repairs any torn tail) and verifies clean.
"$binary" _append-loop --journal "$journal" --device phone --count 1 >/dev/null
"$binary" verify --journal "$journal"
torn=$( (ls "$journal"/devices/phone/ 2>/dev/null || true) | grep -c '\.torn' || true)
echo "ok: $iterations kills, $acknowledged acknowledged appends all present, $torn torn tails set aside"
