#!/usr/bin/env bash
# Regenerates the sample journal and its documents from the generator's seed:
# Journal/ (the events) and Projections/ (the rebuild of them). The freshness
# test fails whenever these would come out differently.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product journal
journal="$(swift build --show-bin-path)/journal"
rm -rf Journal Projections
"$journal" sample Journal
"$journal" rebuild --journal Journal --out Projections --full
