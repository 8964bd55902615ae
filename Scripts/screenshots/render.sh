#!/usr/bin/env bash
# Makes Scripts/screenshots/render.png, the README's `eki render` picture, from the real open
# data: N02-23 and station_database main/ (../shared/datasets, or $SHARED/datasets) imported
# into a fresh database, a few visits around 小田原 and 箱根 recorded, then the picture of
# 神奈川 and 東京 drawn offline (prefecture basemap, labels auto).
#
#   Scripts/screenshots/render.sh            # uses .build/debug/eki (built if missing)
#   EKI=.build/release/eki Scripts/screenshots/render.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
N02="$SHARED/datasets/csv-n02-2023-stations-ksj/N02-23_Station.utf8.csv"
SD="$SHARED/datasets/csv-station-database-ekimemo/main"
[ -f "$N02" ] && [ -d "$SD" ] || { echo "needs $N02 and $SD" >&2; exit 1; }
EKI=${EKI:-$ROOT/.build/debug/eki}
[ -x "$EKI" ] || (cd "$ROOT" && swift build --product eki)
WORK=$(mktemp -d /tmp/eki-render-shot.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export EKI_DB="$WORK/japan.gpkg" EKI_VISITS="$WORK/visits.sqlite"
"$EKI" import "$N02" "$SD" >/dev/null
for v in "小田原 --operator JR東海 --date 2019-08-13 --kind alight" \
         "jr-east/c/小田原 --date 2019-08-13 --kind board" \
         "箱根湯本 --operator 箱根登山鉄道 --date 2019-08-14 --kind alight" \
         "風祭 --date 2019-08-14" "強羅 --operator 箱根登山鉄道 --date 2019-08-14" \
         "熱海 --operator JR東日本 --date 2019-08-15" "鎌倉 --operator JR東日本 --date 2019-08-16"; do
    # shellcheck disable=SC2086
    "$EKI" visit add $v >/dev/null
done
"$EKI" render --bbox 138.95,35.05,139.75,35.55 --size 1000x640 --labels auto -o "$ROOT/Scripts/screenshots/render.png"
