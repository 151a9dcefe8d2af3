#!/bin/sh
# The source-map decoder on a large real map: TypeScript's compiler
# (typescript@5, lib/typescript.js, ~9 MB) bundled and minified by esbuild
# with a source map, then decoded by zc_bench_sourcemap. Needs node and the
# npm registry; figures only (README.md, "Benchmarks").
#
#   tests/bench/sourcemap.sh [build/tests/zc_bench_sourcemap]
set -eu
bench=$(cd "$(dirname "${1:-build/tests/zc_bench_sourcemap}")" && pwd)/$(basename "${1:-build/tests/zc_bench_sourcemap}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent typescript@5 esbuild@0.28
npx esbuild node_modules/typescript/lib/typescript.js --minify --sourcemap \
  --outfile=ts.min.js --log-level=warning
"$bench" ts.min.js.map ts.min.js
