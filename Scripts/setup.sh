#!/usr/bin/env bash
# Installs the Debian packages EkiKit builds and tests with, when any is missing (apt-get update
# first, then only those); CI runs it too (.ci/run).
# C libraries: SQLite (store + R-tree), expat (OSM XML), libcurl (geocoding), libarchive (GTFS zip),
# zlib + bzip2 (compressed OSM), libosmium (OSM PBF; header-only C++, brings libprotozero-dev), libmicrohttpd (eki serve), PROJ (geodesic distances), and pkg-config to find them; Leaflet
# for the map page (libjs-leaflet). Tools the tests run (each test is skipped with the reason when
# its tool is missing): sqlite3 (comparing databases), gdal-bin (ogrinfo reads the GeoPackage),
# python3 (the geocoding tests' loopback server and the operator table generator), gzip and bzip2
# (compressed OSM input), osmium-tool (makes PBF from XML in the PBF tests); chromium, chromium-driver and python3-selenium for the map's browser
# tests, with a Japanese font for their screenshots; cairo and Pango (libcairo2-dev,
# libpango1.0-dev) and libpng (libpng-dev) for `eki render`, with Noto Sans CJK (fonts-noto-cjk) for its labels;
# libsodium (libsodium-dev) for account passwords (Argon2id) and random tokens; libvips
# (libvips-dev, with libheif for HEIC) for the photos of visits; libpq (libpq-dev) for the
# PostgreSQL store, and the postgresql server the store tests start in a temporary folder.
# `setup.sh --packages` prints the list only (CI installs it with apt-get itself).
set -euo pipefail
packages=(libsqlite3-dev libexpat1-dev libcurl4-openssl-dev libarchive-dev zlib1g-dev libbz2-dev
          libmicrohttpd-dev libproj-dev libjs-leaflet pkg-config sqlite3 gdal-bin python3 bzip2 gzip
          chromium chromium-driver python3-selenium fonts-ipafont-gothic
          libcairo2-dev libpango1.0-dev libpng-dev fonts-noto-cjk libosmium2-dev osmium-tool libsodium-dev
          libvips-dev libheif-dev libpq-dev postgresql)
if [ "${1:-}" = "--packages" ]; then echo "${packages[*]}"; exit 0; fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "swift (6.0 or later) is not on PATH: install the Swift toolchain from swift.org" >&2; exit 1; }
