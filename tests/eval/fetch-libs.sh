#!/usr/bin/env bash
# Fetches the pinned npm libraries the eval subjects are built on, into a
# git-ignored cache (tests/eval/.libs/), and copies them into a subject's
# served folder.
#
#   tests/eval/fetch-libs.sh                      fetch every subject's libraries
#   tests/eval/fetch-libs.sh --copy SUBJECT DEST  fetch SUBJECT's libraries (if
#                                                 needed) and copy them into DEST
#   tests/eval/fetch-libs.sh --copy LIST DEST     the same for a list file (the real
#                                                 regressions' old.libs.txt, new.libs.txt)
#
# Each subject lists its libraries in tests/eval/subjects/NAME/libs.txt, one
# per line: NAME@VERSION  FILE-IN-PACKAGE  PATH-IN-SERVED-FOLDER; each real
# regression (tests/eval/real/NAME/) its old and new build's in old.libs.txt
# and new.libs.txt.
# `npm pack` downloads the exact version's tarball and checks it against the
# registry's integrity hash; nothing is installed, no script of the package runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${ZAMEVAL_LIBS:-$here/.libs}

fetch_one() { # NAME@VERSION -> unpacked into $cache/NAME@VERSION/
  local spec=$1 dir="$cache/$1"
  [ -f "$dir/.done" ] && return 0
  command -v npm >/dev/null || { echo "fetch-libs: npm is needed (apt-get install npm)" >&2; exit 2; }
  mkdir -p "$cache/tgz"
  local tgz
  tgz=$(cd "$cache/tgz" && npm pack "$spec" --silent 2>/dev/null | tail -n 1)
  if [ -z "$tgz" ] || [ ! -f "$cache/tgz/$tgz" ]; then
    echo "fetch-libs: npm pack $spec failed" >&2; exit 2
  fi
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  tar xzf "$cache/tgz/$tgz" -C "$dir.tmp" --warning=no-unknown-keyword
  rm -rf "$dir" && mv "$dir.tmp" "$dir" && touch "$dir/.done"
  echo "fetch-libs: $spec -> $dir" >&2
}

each_lib() { # FILE: prints "spec src dest" lines without comments
  sed -e 's/#.*//' "$1" | awk 'NF == 3 { print $1, $2, $3 }'
}

if [ "${1:-}" = "--copy" ]; then
  [ $# -eq 3 ] || { echo "usage: fetch-libs.sh --copy SUBJECT_DIR|LIST DEST_DIR" >&2; exit 2; }
  list=$2 dest=$3
  [ -d "$list" ] && list=$list/libs.txt
  [ -f "$list" ] || exit 0
  each_lib "$list" | while read -r spec src to; do
    fetch_one "$spec"
    mkdir -p "$(dirname "$dest/$to")"
    cp "$cache/$spec/$src" "$dest/$to"
  done
  exit 0
fi

for list in "$here"/subjects/*/libs.txt "$here"/real/*/*.libs.txt "$here"/heldout/*/*.libs.txt; do
  [ -f "$list" ] || continue
  each_lib "$list" | while read -r spec src to; do fetch_one "$spec"; done
done
