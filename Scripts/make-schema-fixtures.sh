#!/usr/bin/env bash
# Writes Tests/EkiKitTests/Fixtures/schema-v<N>-odawara-tokyo.gpkg: a station database of each
# older schema version the store upgrades, made by the eki of the last commit (on main's
# first-parent history) at which that version was current, importing that commit's own
# Datasets/n02-odawara-tokyo.csv (the same file at every commit listed).
#
#   Scripts/make-schema-fixtures.sh          every version below
#   Scripts/make-schema-fixtures.sh 5 7      only these
#
# Each commit is checked out in a git worktree under $TMPDIR (default /tmp), only its CLI is
# built (debug), then the worktree and its .build are removed. The file is left as the old eki
# wrote it, with its write-ahead log checkpointed into it (no -wal or -shm beside it).
# A new schema version adds its line to `commits`: the last commit before the bump.
set -euo pipefail
root="$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)"
out="$root/Tests/EkiKitTests/Fixtures"
work="${TMPDIR:-/tmp}/eki-schema-fixtures"
input="Datasets/n02-odawara-tokyo.csv"

# version → commit (the parent, on main, of the merge or commit that bumped the version)
declare -A commits=(
  [2]=81f95b56c1f9116e3dfa3d0f515f528f102083aa   # d6b9753^2: main's schema 2 (no search index)
  [3]=fd14e98796963b94b6f03838174466ceaa19c275   # 32841fd^1 (merge of i15: line table, schema 4)
  [4]=b07fa4b8afbb7a6ff6afbb169d5e6c40c2f1ccc0   # 9d64112^1 (merge of r14: station kinds, schema 5)
  [5]=c6e3db2ba32dd5ef994b865bc568e42705566cd2   # 33905f7^1 (merge of scale: bigrams, schema 6)
  [6]=9c92514b8320d5dcd6e24063c4d1305d9c0b82ef   # 10215dc^1 (merge of search18: schema 7)
  [7]=10215dcf19824141a917e1a62d01d6613489af1f   # fb74f6a^1 (merge of store18: schema 8)
)
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(2 3 4 5 6 7)

mkdir -p "$out" "$work"
for v in "${versions[@]}"; do
  commit="${commits[$v]:?no commit listed for schema version $v}"
  tree="$work/v$v"
  echo "== schema $v: ${commit:0:7} $(git -C "$root" log -1 --format=%s "$commit" | cut -c1-70)"
  git -C "$root" worktree add --force --detach "$tree" "$commit" >/dev/null
  (cd "$tree" && swift build --product eki 2>&1 | tail -n 3)
  db="$work/schema-v$v.gpkg"
  rm -f "$db" "$db-wal" "$db-shm"
  (cd "$tree" && .build/debug/eki import --db "$db" "$input")
  sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
  if [ -e "$db-wal" ] || [ -e "$db-shm" ]; then echo "schema $v: -wal or -shm left beside $db" >&2; exit 1; fi
  found="$(sqlite3 "$db" "SELECT value FROM eki_meta WHERE name = 'schema_version'")"
  [ "$found" = "$v" ] || { echo "schema $v: the file says version $found" >&2; exit 1; }
  cp "$db" "$out/schema-v$v-odawara-tokyo.gpkg"
  rm -f "$db"
  git -C "$root" worktree remove --force "$tree"
  printf '   %s bytes, %s entries\n' "$(stat -c %s "$out/schema-v$v-odawara-tokyo.gpkg")" \
    "$(sqlite3 "$out/schema-v$v-odawara-tokyo.gpkg" 'SELECT count(*) FROM stations')"
done
rmdir "$work" 2>/dev/null || true
