# PostgreSQL for the store conformance suite (test/store/postgres.test.ts).
# Idempotent: installs Debian's postgresql if it is missing, starts the first cluster on 127.0.0.1,
# creates the role `arena` (password `arena`) and the database `arena_test` if they are missing, then
# exports TEST_DATABASE_URL and prints the `export` line.
# Meant to be sourced by .ci/run (which runs with `set -euo pipefail`), or run with bash by a developer:
#   source .ci/postgres.sh        # or: eval "$(bash .ci/postgres.sh | tail -n 1)"
# It never calls `exit`, so sourcing it cannot end the caller's shell on success.

arena_pg_setup() {
  local role=arena password=arena database=arena_test
  local version cluster port status _rest i

  # 1. Install the server if no postgres binary is present.
  if ! compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || ! command -v pg_ctlcluster >/dev/null; then
    echo "== installing PostgreSQL from Debian's packages" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi

  # 2. Make sure a cluster exists (the package creates `main`; a bare install in a container may not).
  if [ -z "$(pg_lsclusters --no-header 2>/dev/null)" ]; then
    version=$(basename "$(compgen -G '/usr/lib/postgresql/*' | sort -V | tail -n 1)")
    pg_createcluster "$version" main >/dev/null
  fi
  read -r version cluster port status _rest <<<"$(pg_lsclusters --no-header | head -n 1)"

  # 3. Start it if it is down; wait until it accepts connections on 127.0.0.1.
  if [[ "$status" != online* ]]; then
    pg_ctlcluster "$version" "$cluster" start
  fi
  for i in $(seq 1 60); do
    if pg_isready -q -h 127.0.0.1 -p "$port"; then break; fi
    if [ "$i" -eq 60 ]; then echo "PostgreSQL did not become ready on 127.0.0.1:$port" >&2; return 1; fi
    sleep 0.5
  done

  # 4. Role and database (SUPERUSER so tests may create and drop their own schemas freely).
  if [ "$(su postgres -c "psql -p $port -tAc \"SELECT 1 FROM pg_roles WHERE rolname = '$role'\"")" != 1 ]; then
    su postgres -c "psql -q -p $port -c \"CREATE ROLE $role LOGIN PASSWORD '$password' SUPERUSER\""
  fi
  if [ "$(su postgres -c "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname = '$database'\"")" != 1 ]; then
    su postgres -c "createdb -p $port -O $role $database"
  fi

  TEST_DATABASE_URL="postgres://$role:$password@127.0.0.1:$port/$database"
  export TEST_DATABASE_URL
  echo "export TEST_DATABASE_URL=$TEST_DATABASE_URL"
}

arena_pg_setup
