#!/usr/bin/env bash
# Start Debian's PostgreSQL cluster on loopback and make a throwaway database for the tests.
# Prints the SQLAlchemy URL as its last line; `export ATTN_TEST_DATABASE_URL=$(bash scripts/test_postgres.sh | tail -n 1)`.
# Needs the `postgresql` Debian package and root (or the postgres user); .ci/run installs and calls it.
set -euo pipefail

version=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -n 1)
[ -n "$version" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
cluster=main
if ! pg_lsclusters -h 2>/dev/null | awk '{print $1, $2}' | grep -qx "$version $cluster"; then
  pg_createcluster "$version" "$cluster" >&2
fi
pg_ctlcluster "$version" "$cluster" start 2>/dev/null || true
for _ in $(seq 1 50); do
  pg_isready -q -h 127.0.0.1 && break
  sleep 0.2
done
pg_isready -q -h 127.0.0.1 || { echo "PostgreSQL did not start" >&2; exit 1; }

as_postgres() { if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi; }
as_postgres psql -q -v ON_ERROR_STOP=1 <<'SQL' >&2
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'attn_lab') THEN
    CREATE ROLE attn_lab LOGIN PASSWORD 'attn_lab' CREATEDB;
  END IF;
END $$;
SQL
# A fresh database every time: a test database left by an earlier run (another branch, a newer schema) would make
# the tests read what they did not write.
as_postgres dropdb --if-exists --force attn_lab_test >&2
as_postgres createdb -O attn_lab attn_lab_test >&2
echo "postgresql+psycopg://attn_lab:attn_lab@127.0.0.1:5432/attn_lab_test"
