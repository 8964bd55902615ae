#!/usr/bin/env bash
# Downloads the open station data EkiKit imports into ./open-data/ (not part of the repository).
# Read each source's licence before use; the README lists the attribution each one requires.
set -euo pipefail
out="${1:-open-data}"
mkdir -p "$out"
cd "$out"

# 国土数値情報 鉄道データ N02 (MLIT). The zip holds GeoJSON (UTF-8 and Shift_JIS) and shapefiles.
# Product page: https://nlftp.mlit.go.jp/ksj/gml/datalist/KsjTmplt-N02-2023.html
curl -fL -o N02-23_GML.zip https://nlftp.mlit.go.jp/ksj/gml/data/N02/N02-23/N02-23_GML.zip

# station_database (Seo-4d696b75), CC BY-SA 4.0: main/ (open and closed stations of current
# lines), extra/ (adds abolished stations) and src/company.csv.
base=https://raw.githubusercontent.com/Seo-4d696b75/station_database/main
mkdir -p station_database/out/main station_database/src
for f in station line register; do
  curl -fL -o "station_database/out/main/$f.csv" "$base/out/main/$f.csv"
done
curl -fL -o station_database/src/company.csv "$base/src/company.csv"

# OpenStreetMap: stations of Japan from Overpass (© OpenStreetMap contributors, ODbL).
curl -fL -o japan-stations.osm --data-urlencode 'data=[out:xml][timeout:300];
area["ISO3166-1"="JP"][admin_level=2]->.jp;
(nwr(area.jp)[railway~"^(station|halt|tram_stop)$"];
 relation(area.jp)[route~"^(train|subway|light_rail|monorail|tram)$"];);
out meta;' https://overpass-api.de/api/interpreter

cat <<'NOTE'
駅データ.jp (ekidata) needs a free account: download the station, line and company CSV files
from https://ekidata.jp/ by hand, put them in one folder and run `eki import FOLDER`.
N02: unzip N02-23_GML.zip and import the station CSV or the station GeoJSON.
NOTE
