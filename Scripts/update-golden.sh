#!/usr/bin/env bash
# Rewrites the generated files the command line's tests compare byte for byte: the help
# pages and completion scripts in Tests/JournalCLITests/Golden/, and the man page
# docs/journal.1. Run it after changing a command's declaration, then review the diff.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests
"$(swift build --show-bin-path)/journal" help --man > docs/journal.1
suites='HelpTests|GroupsAndSuggestionsTests|CompletionTests'
# Recording fails each test it records (so a recording is never taken for a pass)...
JOURNAL_RECORD_GOLDEN=1 swift test --skip-build --filter "$suites" >/dev/null 2>&1 || true
# ...and this run checks that every golden now matches.
swift test --skip-build --filter "$suites|ManPageTests"
git status --short -- Tests/JournalCLITests/Golden docs/journal.1
