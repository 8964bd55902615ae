#!/usr/bin/env bash
# Login benchmark (not a test): `eki-bench login` — one Argon2id hash and verification
# (PasswordHasher.interactive), a password guesser against `eki serve --accounts` with the
# default login limits, and the guesses a second the server checks with the limits lifted.
# Argon2id runs in libsodium (built optimized by Debian), so a debug build measures it the same.
#
#   Scripts/bench/bench-login.sh                  # debug build, 20 s of guessing
#   CONFIG=release SECONDS_GUESSING=60 Scripts/bench/bench-login.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CONFIG=${CONFIG:-debug}
WORK=${WORK:-$(mktemp -d /tmp/eki-bench-login.XXXXXX)}
mkdir -p "$WORK"

(cd "$ROOT" && swift build -c "$CONFIG" --product eki 2>&1 | tail -1 && swift build -c "$CONFIG" --product eki-bench 2>&1 | tail -1)
BIN=$(cd "$ROOT" && swift build -c "$CONFIG" --show-bin-path)
DB="$WORK/sample.gpkg"
[ -f "$DB" ] || "$BIN/eki" import --db "$DB" "$ROOT/Datasets/n02-odawara-tokyo.csv" >/dev/null
"$BIN/eki-bench" login --db "$DB" --runs "${RUNS:-20}" --seconds "${SECONDS_GUESSING:-20}"
