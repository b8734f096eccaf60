#!/usr/bin/env bash
# Rewrites the sample journal's report and its screenshots: docs/report/sample-report.html,
# the golden copy in Tests/JournalCLITests/Golden/, and docs/report/report-1280.png and
# report-390.png (the top of the page at a desktop's and a phone's width, by headless
# Chromium). Run it after changing the report, then look at the screenshots.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product journal
journal="$(swift build --show-bin-path)/journal"
mkdir -p docs/report
"$journal" report --journal Journal --out docs/report/sample-report.html
chmod 644 docs/report/sample-report.html
cp docs/report/sample-report.html Tests/JournalCLITests/Golden/sample-report.html

chromium="${CHROMIUM:-chromium}"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
page="file://$PWD/docs/report/sample-report.html"
for size in 1280,1800 390,1800; do
  width="${size%,*}"
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$profile" --window-size="$size" \
    --screenshot="$PWD/docs/report/report-$width.png" "$page" 2>/dev/null
done
git status --short -- docs/report Tests/JournalCLITests/Golden/sample-report.html
