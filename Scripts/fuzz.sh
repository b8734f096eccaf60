#!/usr/bin/env bash
# Builds one libFuzzer target from Fuzz/ and runs it for a while.
#
#   Scripts/fuzz.sh TARGET [SECONDS] [extra libFuzzer flags…]
#
# TARGET is a folder of Fuzz/: RecordDecoder, PayloadDecoder, DocumentImporter, CommandLine,
# ManifestReader, JournalMerge, HistoryImport; Fuzz/Support/ is compiled with each of them.
# The library targets are compiled straight from Sources/ with `-sanitize=fuzzer,address`
# (SwiftPM's own build does not link a fuzzer main), as static libraries with testing enabled
# so an entry point may `@testable import` them. The corpus lives in $FUZZ_WORK/TARGET/corpus
# and is seeded from the sample journal (Journal/ when present, else journals the CLI
# generates) and the test fixtures. Crashes are written to $FUZZ_WORK/TARGET/ as crash-*;
# turn each one into a regression test in Tests/.
#
# Environment: FUZZ_WORK (default ${TMPDIR:-/tmp}/workout-journal-fuzz), SWIFTC (default swiftc),
# FUZZ_JOBS (parallel compile jobs, default 2), JOURNAL_BIN (a built `journal` to generate seed
# journals with when there is no Journal/; default: build one), FUZZ_SOURCES (a folder holding the Sources/ to
# build, default the repository; a copy keeps a long run apart from edits in progress).
set -euo pipefail

target="${1:?usage: Scripts/fuzz.sh TARGET [SECONDS] [libFuzzer flags…]}"
seconds="${2:-60}"
shift $(( $# >= 2 ? 2 : 1 ))
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${FUZZ_WORK:-${TMPDIR:-/tmp}/workout-journal-fuzz}"
swiftc="${SWIFTC:-swiftc}"
sources_root="${FUZZ_SOURCES:-$root}"
build="$work/build"
[[ -f "$root/Fuzz/$target/main.swift" ]] || {
  echo "error: no fuzz target '$target'; choose one of: $(ls "$root/Fuzz" | tr '\n' ' ')" >&2
  exit 64
}
mkdir -p "$build" "$work/$target/corpus"

flags=(
  -sanitize=fuzzer,address -parse-as-library -enable-testing -O -g -swift-version 6
  -package-name workout_journal
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
  -j "${FUZZ_JOBS:-2}"
)

# Flags a module needs of its own: as Package.swift does, ProcessorHashing may use the x86-64
# CRC-32C and SHA instructions (it checks at run time that the processor has them).
module_flags=()
set_module_flags() {
  module_flags=()
  if [[ "$1" == ProcessorHashing && "$(uname -m)" == x86_64 ]]; then
    module_flags=(-D X86_HASHING_INSTRUCTIONS -Xcc -msse4.2 -Xcc -msha)
  fi
}

# compile MODULE DEPENDENCIES…: a static library and its module, rebuilt when a source changed.
compile() {
  local module="$1"
  set_module_flags "$module"
  shift
  local sources
  mapfile -t sources < <(find "$sources_root/Sources/$module" -name '*.swift' | sort)
  local library="$build/lib$module.a"
  if [[ -f "$library" ]] && [[ -z "$(find "$sources_root/Sources/$module" -name '*.swift' -newer "$library")" ]]; then
    return
  fi
  echo "compiling $module (${#sources[@]} files)…" >&2
  local links=()
  for dependency in "$@"; do links+=(-l"$dependency"); done
  "$swiftc" "${flags[@]}" "${module_flags[@]}" -wmo -emit-library -static -module-name "$module" \
    -emit-module -emit-module-path "$build/$module.swiftmodule" \
    -I "$build" -L "$build" "${links[@]}" -o "$library" "${sources[@]}"
}

compile ProcessorHashing
compile JournalCore ProcessorHashing
case "$target" in
RecordDecoder | JournalMerge) libraries=(JournalCore ProcessorHashing) ;;
CommandLine) libraries=(JournalCLI JournalProjections JournalCore ProcessorHashing) ;;
*) libraries=(JournalProjections JournalCore ProcessorHashing) ;;
esac
[[ "$target" == RecordDecoder || "$target" == JournalMerge ]] ||
  compile JournalProjections JournalCore ProcessorHashing
[[ "$target" != CommandLine ]] || compile JournalCLI JournalCore JournalProjections ProcessorHashing

binary="$build/fuzz-$target"
links=()
for library in "${libraries[@]}"; do links+=("$build/lib$library.a"); done
echo "linking fuzz-$target…" >&2
# The linker warns about every sanitizer symbol it cannot export; only errors matter.
"$swiftc" "${flags[@]}" -I "$build" -o "$binary" "$root/Fuzz/$target/main.swift" \
  "$root"/Fuzz/Support/*.swift "${links[@]}" \
  2> >(grep -v "Cannot export local symbol" >&2)

# Seed the corpus: record lines from a journal, documents from projections and fixtures.
corpus="$work/$target/corpus"
seeds="$work/seeds"
if [[ ! -f "$seeds/done" ]]; then
  rm -rf "$seeds"
  mkdir -p "$seeds/lines" "$seeds/documents" "$seeds/argv"
  journal="$root/Journal"
  if [[ ! -d "$journal/devices" ]]; then
    # No sample journal: let the CLI make a few.
    cli="${JOURNAL_BIN:-$work/cli-build/debug/journal}"
    [[ -x "$cli" ]] || (cd "$root" && swift build --product journal --scratch-path "$work/cli-build" >&2)
    journal="$seeds/generated"
    for device in phone watch; do
      export WORKOUT_JOURNAL="$journal" WORKOUT_DEVICE="$device"
      "$cli" init >/dev/null 2>&1 || true
      "$cli" split add "Upper $device" >/dev/null
      "$cli" exercise add "Upper $device" "Bench Press" --sets 3 --reps 5 --weight 60 >/dev/null
      "$cli" exercise add "Upper $device" Plank --sets 2 --seconds 60 >/dev/null
      "$cli" start "Upper $device" --time-zone Europe/Paris >/dev/null
      "$cli" done --reps 4 --weight 62.5 >/dev/null
      "$cli" more >/dev/null || true
      "$cli" skip bench >/dev/null || true
      "$cli" undo >/dev/null || true
      "$cli" end >/dev/null || true
      "$cli" rebuild --out "$seeds/generated-projections" >/dev/null 2>&1 || true
    done
    unset WORKOUT_JOURNAL WORKOUT_DEVICE
  fi
  # One line per seed file, at most 2000 lines in all.
  find "$journal/devices" -name '*.jsonl' -print0 | xargs -0 cat | head -n 2000 |
    split -l 1 -a 5 - "$seeds/lines/line-"
  n=0
  while IFS= read -r -d '' file; do
    cp "$file" "$seeds/documents/doc-$((n++)).json"
  done < <(find "$root/Projections" "$seeds/generated-projections" \
    "$root/Tests/JournalProjectionsTests/Golden" -name '*.json' -print0 2>/dev/null | head -z -n 2000)
  # Command lines, arguments separated by NUL.
  a=0
  for line in "init" "verify" "status" "today" "split list" "split add Legs" \
    "exercise add upper Curl --sets 3 --reps 8" "start upper" "done --reps 5 --weight 60" \
    "adjust --reps 3" "more" "skip bench" "reset bench" "end" "undo" "redo" "rewind --to 0" \
    "audit --json" "history" "records" "export --format csv" "rebuild --output Out" \
    "delete" "metrics --max-hr 150" "help start" "--help" "done --weight 1e400" \
    "done --reps -1" "split add Z --color red"; do
    seed="$seeds/argv/argv-$a"
    a=$((a + 1))
    printf '%s' "$line" | tr ' ' '\0' >"$seed"
  done
  # Payloads of old event versions, from the upcaster test vectors: {"type","v","data"}.
  for vector in "$root"/Tests/JournalProjectionsTests/Golden/Upcasters/*.json; do
    name="$(basename "$vector" .json)"
    input="$(grep '"input"' "$vector" | sed 's/^ *"input": *//; s/, *$//')"
    [[ -n "$input" ]] || continue
    printf '{"type":"%s","v":%s,"data":%s}' "${name%.v*}" "${name##*.v}" "$input" \
      >"$seeds/lines/vector-$name"
  done
  touch "$seeds/done"
fi
# Manifest files: the manifest and record of a rebuild of the sample journal (or a generated
# one).
if [[ "$target" == ManifestReader ]] && [[ ! -f "$seeds/manifest-done" ]]; then
  cli="${JOURNAL_BIN:-$work/cli-build/debug/journal}"
  [[ -x "$cli" ]] || (cd "$root" && swift build --product journal --scratch-path "$work/cli-build" >&2)
  journal="$root/Journal"
  [[ -d "$journal/devices" ]] || journal="$seeds/generated"
  rm -rf "$seeds/manifest" "$work/manifest-out" "$work/manifest-journal"
  mkdir -p "$seeds/manifest"
  # A rebuild from the saved state of a copy of the journal (it writes the state beside it).
  cp -r "$journal" "$work/manifest-journal"
  "$cli" rebuild --journal "$work/manifest-journal" --out "$work/manifest-out" >/dev/null
  n=0
  while IFS= read -r -d '' file; do
    cp "$file" "$seeds/manifest/file-$((n++))"
  done < <(find "$work/manifest-out/.journal-projection" "$root/Projections/.journal-projection" \
    -type f -print0 2>/dev/null | head -z -n 2000)
  touch "$seeds/manifest-done"
fi
# Journals for the merge: runs of lines of the sample's devices, the watch's marked `W`, now and
# then a segment break, and a phone line delivered again on the watch.
if [[ "$target" == JournalMerge ]] && [[ ! -f "$seeds/journals-done" ]]; then
  rm -rf "$seeds/journals"
  mkdir -p "$seeds/journals"
  journal="$root/Journal"
  [[ -d "$journal/devices" ]] || journal="$seeds/generated"
  phone="$(find "$journal/devices" -path '*phone*' -name '*.jsonl' | sort | head -n 1)"
  watch="$(find "$journal/devices" -path '*watch*' -name '*.jsonl' | sort | head -n 1)"
  for n in $(seq 0 39); do
    {
      sed -n "$((n * 7 + 1)),$((n * 7 + 12))p" "$phone"
      [[ $((n % 3)) -ne 0 ]] || echo "--"
      [[ -z "$watch" ]] || sed -n "$((n * 3 + 1)),$((n * 3 + 6))p" "$watch" | sed 's/^/W/'
      [[ $((n % 4)) -ne 1 ]] || sed -n "$((n * 7 + 2))p" "$phone" | sed 's/^/W/'
    } >"$seeds/journals/journal-$n"
  done
  touch "$seeds/journals-done"
fi
# Exports for the history import: the sample journal's `journal export`, and one file of each
# layout the tests read (Strong's three, translated headers, Hevy in kg and lb).
if [[ "$target" == HistoryImport ]] && [[ ! -f "$seeds/exports-done" ]]; then
  rm -rf "$seeds/exports"
  mkdir -p "$seeds/exports"
  journal="$root/Journal"
  [[ -d "$journal/devices" ]] || journal="$seeds/generated"
  cli="${JOURNAL_BIN:-$work/cli-build/debug/journal}"
  [[ -x "$cli" ]] || (cd "$root" && swift build --product journal --scratch-path "$work/cli-build" >&2)
  "$cli" export --journal "$journal" | head -n 120 >"$seeds/exports/sample.csv"
  printf '%s\r\n%s\r\n%s' \
    'Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE' \
    '2026-03-02 18:40:00,Push,1h 5m,Bench Press,W,40,10.0,0,0,"a ""quoted""\nnote",,' \
    '2026-03-02 18:40:00,Push,1h 5m,Bench Press,Rest Timer,0,0,0,90,,,' >"$seeds/exports/strong-12.csv"
  printf '%s\n%s\n' \
    'Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration' \
    '2019-01-11 12:31:54;"Leg";"Deadlift (Barbell)";0;225;lbs;5;;2,5;km;0;"";"";54m' >"$seeds/exports/strong-units.csv"
  printf '\xef\xbb\xbf%s\n%s\n' \
    '"Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";"Reps";"RPE";"Distance (meters)";"Seconds";"Notes";"Workout Notes"' \
    '"1";"2026-04-08 4:50:00 PM";"Pull";"3120";"Row";"F";"37.49999999999999";"6";"9";"";"";"";""' >"$seeds/exports/strong-current.csv"
  printf '%s\n%s\n' \
    'Datum;Trainingsname;Dauer;Übungsname;Satzreihenfolge;Gewicht;Wiederholungen;Distanz;Sekunden;Notizen;Trainingsnotizen;RPE' \
    '2026-01-05 09:00:00;Beine;45m;Kniebeuge;1;100;5;0;0;;;' >"$seeds/exports/strong-de.csv"
  for unit in kg lbs; do
    distance=km
    [[ "$unit" == kg ]] || distance=miles
    printf '%s\n%s\n%s' \
      "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,set_index,set_type,weight_$unit,reps,distance_$distance,duration_seconds,rpe" \
      '"Upper","8 Apr 2026, 16:50","8 Apr 2026, 17:55","one\ntwo","Bench Press (Barbell)",0,"",0,"warmup",40,10,,,' \
      '"Upper","8 Apr 2026, 16:50","8 Apr 2026, 17:55","one\ntwo","Row",0,"",0,"dropset",60,8,,,8.5' \
      >"$seeds/exports/hevy-$unit.csv"
  done
  touch "$seeds/exports-done"
fi
case "$target" in
HistoryImport) cp -n "$seeds/exports/"* "$corpus/" 2>/dev/null || true ;;
JournalMerge) cp -n "$seeds/journals/"* "$corpus/" 2>/dev/null || true ;;
RecordDecoder | PayloadDecoder) cp -n "$seeds/lines/"* "$corpus/" 2>/dev/null || true ;;
DocumentImporter) cp -n "$seeds/documents/"* "$corpus/" 2>/dev/null || true ;;
CommandLine) cp -n "$seeds/argv/"* "$corpus/" 2>/dev/null || true ;;
ManifestReader) cp -n "$seeds/manifest/"* "$corpus/" 2>/dev/null || true ;;
esac

echo "running fuzz-$target for ${seconds}s on $(ls "$corpus" | wc -l) seeds…" >&2
cd "$work/$target"
exec "$binary" "$corpus" -max_total_time="$seconds" -max_len="${FUZZ_MAX_LEN:-65536}" \
  -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 "$@" </dev/null
