#!/bin/sh
# Rebuilds the checked-in bundles from src/ with four real bundlers, each
# as a production build with source maps. Run by hand (it needs node and
# the network for npm); CI uses the folders it wrote and needs neither.
#
#   tests/agent/bundles/build.sh
#
# esbuild/   esbuild --minify, content hash in the name (esbuild's own
#            upper-case alphabet), map by sourceMappingURL comment
# terser/    an unminified esbuild bundle minified by terser: app.min.js
#            with app.min.js.map beside it and no comment (as published
#            .min.js files often are)
# webpack/   webpack --mode production, [contenthash], devtool source-map
# rollup/    rollup + @rollup/plugin-terser, then a prelude prepended and
#            an index map ("sections") written, as Turbopack-style
#            bundlers do
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent esbuild@0.28 terser@5 \
  webpack@5 webpack-cli@6 rollup@4 @rollup/plugin-terser@0.4
page() { # dir script
  sed "s|SCRIPT|$2|" "$here/src/old/index.html" >"$1/index.html"
}
# Both builds compile the same paths (src/...), as two commits of one
# project would: the maps' sources are equal, the code is not.
for v in old new; do
  rm -rf "$work/app" && mkdir -p "$work/app/src"
  cp "$here/src/$v/"*.js "$here/src/package.json" "$work/app/src/"
  cd "$work/app"
  src=src
  # esbuild
  d=$here/esbuild/$v
  rm -rf "$d" && mkdir -p "$d/assets"
  npx esbuild "$src/main.js" --bundle --minify --sourcemap --format=esm \
    --entry-names='[name]-[hash]' --outdir=dist/assets --log-level=warning
  cp dist/assets/* "$d/assets/"
  page "$d" "assets/$(cd "$d/assets" && ls main-*.js)"
  # terser
  d=$here/terser/$v
  rm -rf "$d" && mkdir -p "$d/js"
  npx esbuild "$src/main.js" --bundle --sourcemap --format=esm \
    --outfile="$work/plain.js" --log-level=warning
  npx terser "$work/plain.js" --compress --mangle --module \
    --source-map "content='$work/plain.js.map',filename='app.min.js.map'" \
    -o "$d/js/app.min.js"
  sed -i '/^\/\/# sourceMappingURL=/d' "$d/js/app.min.js"
  page "$d" js/app.min.js
  # webpack
  d=$here/webpack/$v
  rm -rf "$d"
  npx webpack --mode production --entry "./$src/main.js" --output-path "$d" \
    --output-filename 'static/js/main.[contenthash].js' \
    --output-devtool-namespace report-app --devtool source-map >/dev/null
  page "$d" "static/js/$(cd "$d/static/js" && ls main.*.js | grep -v map)"
  # rollup, then an index map
  d=$here/rollup/$v
  rm -rf "$d" && mkdir -p "$d/assets"
  cat >"$work/rollup.config.mjs" <<EOC
import terser from "@rollup/plugin-terser";
export default { input: "$work/app/$src/main.js",
  output: { dir: "$work/app/r", format: "es", sourcemap: true,
            entryFileNames: "index-[hash].js", plugins: [terser()] } };
EOC
  rm -rf "$work/app/r"
  npx rollup -c "$work/rollup.config.mjs" --silent
  node - "$work/app/r" "$d/assets" <<'EOJ'
const fs = require("fs"), path = require("path");
const [from, to] = process.argv.slice(2);
const js = fs.readdirSync(from).find((f) => f.endsWith(".js"));
const body = fs.readFileSync(path.join(from, js), "utf8")
  .replace(/\n\/\/# sourceMappingURL=.*\n?$/, "\n");
const map = JSON.parse(fs.readFileSync(path.join(from, js + ".map"), "utf8"));
const prelude = 'globalThis.__built="zamcap";\n';
const out = prelude + body + "//# sourceMappingURL=" + js + ".map\n";
fs.writeFileSync(path.join(to, js), out);
const index = { version: 3, file: js, sections: [
  { offset: { line: 0, column: 0 }, map: { version: 3, sources: ["prelude.js"],
    names: [], mappings: "AAAA" } },
  { offset: { line: 1, column: 0 }, map } ] };
fs.writeFileSync(path.join(to, js + ".map"), JSON.stringify(index));
EOJ
  page "$d" "assets/$(cd "$d/assets" && ls index-*.js | grep -v map)"
  cd "$work"
done
cat >"$here/app.json" <<'EOF2'
{
  "title": "Build the report",
  "steps": [
    {"type": "setViewport", "width": 800, "height": 600,
     "deviceScaleFactor": 1, "isMobile": false, "hasTouch": false,
     "isLandscape": false},
    {"type": "navigate", "url": "http://localhost:8080/index.html"},
    {"type": "click", "selectors": [["aria/Build"], ["#build"]],
     "offsetX": 10, "offsetY": 10},
    {"type": "waitForElement", "selectors": [["#done"]]}
  ]
}
EOF2
echo "built into $here"
