#!/usr/bin/env bash
# Installs `eki` from the release build: run `swift build -c release` first, then
#   Scripts/install.sh [PREFIX]        (default: ~/.local/bin)
# Copies .build/release/eki and any *.resources bundle folders beside it (SwiftPM resource
# bundles, which the binary looks for next to itself) into PREFIX, then says whether PREFIX
# is on PATH. BUILD_DIR overrides where the release build is (default: .build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-$HOME/.local/bin}"
build="${BUILD_DIR:-.build/release}"
if [ ! -x "$build/eki" ]; then
  echo "install.sh: $build/eki is missing: run \`swift build -c release\` first" >&2
  exit 1
fi
mkdir -p "$prefix"
install -m 755 "$build/eki" "$prefix/eki"
echo "installed $prefix/eki"
shopt -s nullglob
for bundle in "$build"/*.resources; do
  rm -rf "$prefix/$(basename "$bundle")"
  cp -R "$bundle" "$prefix/"
  echo "installed $prefix/$(basename "$bundle")"
done
case ":$PATH:" in
  *":$prefix:"*) echo "$prefix is on PATH: run \`eki --help\`" ;;
  *) echo "$prefix is not on PATH: add it, e.g. \`export PATH=\"$prefix:\$PATH\"\` in ~/.profile" ;;
esac
