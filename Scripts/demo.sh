#!/usr/bin/env bash
# The README's first command: install what is missing, build, build a station database from the
# samples in Datasets/, then ask it for a map viewport around 東京駅 and the entries nearest 小田原駅.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
# The first release build takes minutes: show its progress (and, should it fail, the whole error).
echo "== swift build -c release"
swift build -c release
eki=".build/release/eki"
db="demo.gpkg"
rm -f "$db"
echo "== eki import --db $db Datasets/n02-odawara-tokyo.csv"
"$eki" import --db "$db" Datasets/n02-odawara-tokyo.csv
echo
echo "== eki import --db $db --columns ... Datasets/odawara-readings.csv   (readings join the same entries)"
"$eki" import --db "$db" --columns id=駅コード,name=駅名,reading=よみ,lat=緯度,lon=経度,operator=事業者,line=路線,class=区分 \
  Datasets/odawara-readings.csv
echo
echo "== eki bbox --db $db 139.760,35.676,139.772,35.686   (viewport around 東京駅)"
"$eki" bbox --db "$db" 139.760,35.676,139.772,35.686
echo
echo "== eki nearest --db $db --lat 35.2564 --lon 139.1553 -k 5   (the pins at 小田原駅)"
"$eki" nearest --db "$db" --lat 35.2564 --lon 139.1553 -k 5
echo
echo "Next: Scripts/install.sh puts eki on your PATH (~/.local/bin); export EKI_DB=$PWD/$db to query this database."
