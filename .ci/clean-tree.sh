#!/usr/bin/env bash
# The checkout after the tests must be as before them: tests write only under temporary directories
# (os.tmpdir()), never into the tree. Usage:
#   bash .ci/clean-tree.sh snapshot <file>   # before npm test: record `git status` (ignored files included)
#   bash .ci/clean-tree.sh check <file>      # after: exit 1, listing them, if files appeared, changed or vanished
# In CI the checkout is clean, so `check` demands an empty `git status --porcelain` (plus no new ignored
# files such as data/); run locally on a dirty tree, it compares with the snapshot instead.
set -euo pipefail
cd "$(dirname "$0")/.."
status() { git status --porcelain --ignored; }
case "${1:-}" in
  snapshot) status > "$2" ;;
  check)
    after=$(status)
    if [ "$after" != "$(cat "$2")" ]; then
      echo "npm test left files in the checkout (< before, > after); a test must write under a temporary directory (mkdtemp in os.tmpdir()):" >&2
      diff <(cat "$2") <(echo "$after") >&2 || true
      exit 1
    fi
    if [ -n "$(git status --porcelain)" ]; then echo "(the tree was not clean before npm test either: $(git status --porcelain | wc -l) entries)"; fi
    echo "the tests left the checkout as they found it"
    ;;
  *) echo "usage: $0 snapshot|check <file>" >&2; exit 2 ;;
esac
