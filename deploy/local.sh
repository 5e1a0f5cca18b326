#!/usr/bin/env bash
# The deployment of deploy/compose.yaml without Docker: HAProxy (deploy/haproxy.cfg, the same file), three
# Streamlit replicas and a private PostgreSQL, all on 127.0.0.1.
#
#   bash deploy/local.sh            # first line of output: the proxy's URL; Ctrl-C (or SIGTERM) stops it all
#
# Ports (each must be free; the defaults are not Streamlit's 8501 nor PostgreSQL's 5432, to stay clear of a
# developer's own servers):
#   ATTN_PROXY_PORT  (8500)             the proxy, the only address students use
#   ATTN_APP_PORTS   ("8511 8512 8513") the three replicas
#   ATTN_PG_PORT     (55432)            PostgreSQL; the replicas get ATTN_LAB_DATABASE_URL for it
# ATTN_TLS_PORT and ATTN_TLS_CERT (both optional): the proxy also serves HTTPS on 127.0.0.1:<port> with that PEM file
# (certificate, then key), as a real deployment should (browsers ask for brotli and HTTP/2 over HTTPS only).
# ATTN_RESPAWN_DELAY (3, whole seconds) before a replica, HAProxy or PostgreSQL that died is started again, as
# compose's restart policy does. ATTN_START_TIMEOUT (120, seconds) for everything to become healthy at start.
# Every value is checked first; a bad one stops local.sh with a message naming it.
# ATTN_RUN_DIR (a new temp folder) holds the logs, app<N>.pid, haproxy.sock and the database; it is removed
# on exit unless it was given.
#
# As root, PostgreSQL runs as the `postgres` user (it refuses root). Needs haproxy and postgresql (Debian).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
proxy_port=${ATTN_PROXY_PORT:-8500}
read -r -a app_ports <<<"${ATTN_APP_PORTS:-8511 8512 8513}"
pg_port=${ATTN_PG_PORT:-55432}
respawn_delay=${ATTN_RESPAWN_DELAY:-3}
python=${PYTHON:-python3}  # the Python that has requirements.txt installed

fail() { echo "local.sh: $*" >&2; exit 1; }
# ---- every setting checked before anything starts, with the value and what is expected
whole() {  # $1: variable name, $2: its value, $3 $4: the allowed range; a whole number or a clear stop
  [[ $2 =~ ^[0-9]+$ ]] && [ "$((10#$2))" -ge "$3" ] && [ "$((10#$2))" -le "$4" ] \
    || fail "$1 must be a whole number from $3 to $4, not '$2'"
}
port_setting() { whole "$1" "$2" 1 65535; }
[ "${#app_ports[@]}" -eq 3 ] || fail "ATTN_APP_PORTS needs three ports (deploy/haproxy.cfg has three replicas), \
not '${ATTN_APP_PORTS:-}'"
port_setting ATTN_PROXY_PORT "$proxy_port"
for port in "${app_ports[@]}"; do port_setting ATTN_APP_PORTS "$port"; done
port_setting ATTN_PG_PORT "$pg_port"
whole ATTN_RESPAWN_DELAY "$respawn_delay" 0 3600  # seconds; bash counts in whole ones
start_timeout=${ATTN_START_TIMEOUT:-120}
whole ATTN_START_TIMEOUT "$start_timeout" 1 3600
[ -n "${ATTN_TLS_PORT:-}" ] && port_setting ATTN_TLS_PORT "$ATTN_TLS_PORT"
[ "$(printf '%s\n' "$proxy_port" "${app_ports[@]}" "$pg_port" ${ATTN_TLS_PORT:-} | sort -u | wc -l)" \
  -eq "$((5 + ${ATTN_TLS_PORT:+1}+0))" ] || fail "the ports must all differ: proxy $proxy_port, replicas \
${app_ports[*]}, PostgreSQL $pg_port${ATTN_TLS_PORT:+, HTTPS $ATTN_TLS_PORT}"
"$python" -c 'import streamlit' 2>/dev/null \
  || fail "PYTHON=$python cannot import streamlit (pip install -r requirements.txt, or point PYTHON at that Python)"
command -v haproxy >/dev/null || fail "haproxy is not installed (apt-get install haproxy)"
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$pg_bin" ] || fail "PostgreSQL is not installed (apt-get install postgresql)"
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
tls_port=${ATTN_TLS_PORT:-} tls_cert=${ATTN_TLS_CERT:-}
if [ -n "$tls_port$tls_cert" ]; then
  [ -n "$tls_port" ] && [ -r "$tls_cert" ] || fail "HTTPS needs both ATTN_TLS_PORT and a readable ATTN_TLS_CERT"
fi
for port in "$proxy_port" "${app_ports[@]}" "$pg_port" $tls_port; do
  port_in_use "$port" && fail "port $port on 127.0.0.1 is in use; choose others (ATTN_PROXY_PORT, ATTN_APP_PORTS, \
ATTN_PG_PORT)"
done

if [ -n "${ATTN_RUN_DIR:-}" ]; then
  run=$ATTN_RUN_DIR keep_run=1
  mkdir -p "$run"
else
  run=$(mktemp -d "${TMPDIR:-/tmp}/attn-deploy.XXXXXX") keep_run=0
fi
chmod 711 "$run"  # the postgres user must reach its data folder inside it

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
app_pids=("" "" "")
haproxy_pid="" stopping=0

stop_all() {
  stopping=1
  trap '' INT TERM
  local pid
  for pid in "$haproxy_pid" "${app_pids[@]}"; do
    [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null || true
  done
  if [ -f "$run/pg/data/postmaster.pid" ]; then
    as_pg "$pg_bin/pg_ctl" -D "$run/pg/data" -m fast -w stop >>"$run/postgres.log" 2>&1 || true
  fi
  for pid in "$haproxy_pid" "${app_pids[@]}"; do
    [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
  done
  [ "$keep_run" = 1 ] || rm -rf "$run"
}
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
trap 'if [ "$stopping" = 0 ]; then stop_all; fi' EXIT

# ---- PostgreSQL: its own cluster, password login over TCP for the app, socket in the run folder
mkdir -p "$run/pg"
[ "$(id -u)" = 0 ] && chown postgres: "$run/pg"
db_password=$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')
printf '%s\n' "$db_password" >"$run/pg/password"
[ "$(id -u)" = 0 ] && chown postgres: "$run/pg/password"
as_pg "$pg_bin/initdb" -D "$run/pg/data" -U attn_lab --pwfile="$run/pg/password" --auth-host=scram-sha-256 \
  --auth-local=scram-sha-256 -E UTF8 >"$run/postgres.log" 2>&1 || fail "initdb failed; see $run/postgres.log"
rm -f "$run/pg/password"
start_pg() {
  as_pg "$pg_bin/pg_ctl" -D "$run/pg/data" -w -t 30 -l "$run/pg/server.log" \
    -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $run/pg" start >>"$run/postgres.log" 2>&1
}
pg_alive() { as_pg "$pg_bin/pg_ctl" -D "$run/pg/data" status >/dev/null 2>&1; }
start_pg || fail "PostgreSQL did not start; see $run/pg/server.log"
PGPASSWORD=$db_password "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U attn_lab -d postgres -q \
  -c "CREATE DATABASE attn_lab" >>"$run/postgres.log" 2>&1 \
  || fail "could not create the database; see $run/postgres.log"
export ATTN_LAB_DATABASE_URL="postgresql+psycopg://attn_lab:$db_password@127.0.0.1:$pg_port/attn_lab"
(umask 077 && printf '%s\n' "$ATTN_LAB_DATABASE_URL" >"$run/database_url")  # for tools run beside it, owner only

# ---- the replicas
start_app() {  # $1: replica index 0..2
  local n=$(($1 + 1))
  (cd "$repo" && exec "$python" -m streamlit run app.py --server.headless true --server.address 127.0.0.1 \
     --server.port "${app_ports[$1]}" --browser.gatherUsageStats false) </dev/null >>"$run/app$n.log" 2>&1 &
  app_pids[$1]=$!
  echo "${app_pids[$1]}" >"$run/app$n.pid"
}
healthy() {  # $1: port; does /_stcore/health answer "ok"? (bash's /dev/tcp: no curl needed)
  local reply
  reply=$(timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && printf "GET /_stcore/health HTTP/1.0\r\n\r\n" >&3 \
    && cat <&3' _ "$1" 2>/dev/null) || return 1
  [[ $reply == *$'\r\n\r\nok' ]]
}
for i in 0 1 2; do start_app "$i"; done

# ---- Streamlit's bundles at brotli 11 and gzip -9, once per Streamlit version (deploy/precompress.py says why).
# Without the brotli package (requirements-dev.txt) only gzip copies are made; the cache folder's name says which,
# and carries precompress.py's checksum, so installing brotli later or changing the script makes a new one.
st_version=$("$python" -c 'import streamlit; print(streamlit.__version__)')
codings=$("$python" -c 'import brotli' 2>/dev/null && echo br-gz || echo gz)
[ "$codings" = gz ] && echo "local.sh: no brotli package (pip install -r requirements-dev.txt): bundles as gzip only" >&2
script_sum=$(cksum <"$here/precompress.py" | cut -d ' ' -f 1)
static_gz="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/attn-lab/static-$st_version-$codings-$script_sum"
[ -f "$static_gz/index.txt" ] || "$python" "$here/precompress.py" "$static_gz" >>"$run/haproxy.log" 2>&1 \
  || fail "deploy/precompress.py failed; see $run/haproxy.log"

# ---- the proxy, with the addresses deploy/haproxy.cfg reads from the environment
export STATIC_GZ_LUA="$here/static_gz.lua" STATIC_GZ_DIR="$static_gz"
export PROXY_BIND="127.0.0.1:$proxy_port" HAPROXY_SOCKET="$run/haproxy.sock"
if [ -n "$tls_port" ]; then export PROXY_TLS_BIND="127.0.0.1:$tls_port" PROXY_TLS_CERT="$tls_cert"; fi
export APP1="127.0.0.1:${app_ports[0]}" APP2="127.0.0.1:${app_ports[1]}" APP3="127.0.0.1:${app_ports[2]}"
haproxy -c -q -f "$here/haproxy.cfg" >>"$run/haproxy.log" 2>&1 \
  || fail "deploy/haproxy.cfg does not parse; see $run/haproxy.log"
start_haproxy() {
  haproxy -db -f "$here/haproxy.cfg" </dev/null >>"$run/haproxy.log" 2>&1 &
  haproxy_pid=$!
  echo "$haproxy_pid" >"$run/haproxy.pid"
}
start_haproxy

deadline=$((SECONDS + start_timeout))
for i in 0 1 2; do
  until healthy "${app_ports[$i]}"; do
    kill -0 "${app_pids[$i]}" 2>/dev/null || fail "replica $((i + 1)) exited at start; see $run/app$((i + 1)).log"
    [ "$SECONDS" -lt "$deadline" ] || fail "replica $((i + 1)) not healthy in time; see $run/app$((i + 1)).log"
    sleep 0.2
  done
done
replicas_up() {  # how many replicas HAProxy itself counts as UP (its runtime API, `show stat`)
  "$python" - "$run/haproxy.sock" <<'PY' 2>/dev/null
import socket, sys
with socket.socket(socket.AF_UNIX) as sock:
    sock.connect(sys.argv[1])
    sock.sendall(b"show stat\n")
    text = b"".join(iter(lambda: sock.recv(65536), b"")).decode()
rows = [line.split(",") for line in text.splitlines() if line.startswith("replicas,app")]
print(sum(row[17].startswith("UP") for row in rows))  # field 17: status
PY
}
until [ "$(replicas_up)" = 3 ] && healthy "$proxy_port"; do
  kill -0 "$haproxy_pid" 2>/dev/null || fail "haproxy exited; see $run/haproxy.log"
  [ "$SECONDS" -lt "$deadline" ] || fail "the proxy does not see three healthy replicas; see $run/haproxy.log"
  sleep 0.2
done

echo "http://127.0.0.1:$proxy_port/"
echo "run folder $run (logs, app<N>.pid, haproxy.sock); replicas on ports ${app_ports[*]}; PostgreSQL on $pg_port"
[ -z "$tls_port" ] || echo "https://127.0.0.1:$tls_port/ (HTTPS, HTTP/2)"
echo "Ctrl-C stops the proxy, the replicas and PostgreSQL."

# ---- run until stopped. Like compose's `restart: unless-stopped`, whatever dies (a replica, HAProxy, PostgreSQL)
# is started again after ATTN_RESPAWN_DELAY seconds. A proxy or database that will not start again stops
# everything, loudly: half a deployment would only look like one.
down_since=(0 0 0)
proxy_down=0 pg_down=0
while :; do
  if ! kill -0 "$haproxy_pid" 2>/dev/null; then
    wait "$haproxy_pid" 2>/dev/null || true
    if [ "$proxy_down" = 0 ]; then
      proxy_down=$SECONDS
      echo "local.sh: haproxy exited; starting it again in ${respawn_delay} s (see $run/haproxy.log)" >&2
    elif [ $((SECONDS - proxy_down)) -ge "$respawn_delay" ]; then
      haproxy -c -q -f "$here/haproxy.cfg" >>"$run/haproxy.log" 2>&1 \
        || fail "haproxy exited and deploy/haproxy.cfg no longer parses; stopping everything (see $run/haproxy.log)"
      start_haproxy
      sleep 1
      kill -0 "$haproxy_pid" 2>/dev/null \
        || fail "haproxy exited and would not start again; stopping everything (see $run/haproxy.log)"
      proxy_down=0
      echo "haproxy started again (pid $haproxy_pid)"
    fi
  fi
  if ! pg_alive; then
    if [ "$pg_down" = 0 ]; then
      pg_down=$SECONDS
      echo "local.sh: PostgreSQL exited; starting it again in ${respawn_delay} s (see $run/pg/server.log)" >&2
    elif [ $((SECONDS - pg_down)) -ge "$respawn_delay" ]; then
      rm -f "$run/pg/data/postmaster.pid"  # a killed server leaves it; pg_ctl refuses to start over it
      start_pg || fail "PostgreSQL exited and would not start again; stopping everything (see $run/pg/server.log)"
      pg_down=0
      echo "PostgreSQL started again"
    fi
  fi
  for i in 0 1 2; do
    if ! kill -0 "${app_pids[$i]}" 2>/dev/null; then
      wait "${app_pids[$i]}" 2>/dev/null || true  # reap it
      if [ "${down_since[$i]}" = 0 ]; then
        down_since[$i]=$SECONDS
        echo "replica $((i + 1)) exited; starting it again in ${respawn_delay} s"
      elif [ $((SECONDS - down_since[i])) -ge "$respawn_delay" ]; then
        start_app "$i"
        down_since[$i]=0
        echo "replica $((i + 1)) started again (pid ${app_pids[$i]})"
      fi
    fi
  done
  sleep 0.5 &
  wait $! || true
done
