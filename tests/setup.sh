#!/usr/bin/env bash
# zamcap's one setup script for a fresh Debian machine: installs what is
# missing (apt-get; sudo when not root; nothing to do when all is there),
# configures and builds, then does what it is asked:
#
#   tests/setup.sh --example   build, then find the regression in the todo
#                              demo app's new build (headless Chromium)
#   tests/setup.sh --test      build and run the whole test suite, again under
#                              ASan + UBSan, then the fuzzers (what CI runs)
#   tests/setup.sh --bench     build and run the benchmarks (figures only):
#                              analysis, then capture with real Chromium
#   tests/setup.sh --eval [ARGS]  build, then the ZAM paper's accuracy
#                              experiment (tests/eval/run.sh ARGS; --quick
#                              takes minutes, the full run half an hour)
#   tests/setup.sh --build     install and build only
#
# Builds go to build/ (and build-asan/, build-fuzz/ for the sanitizer passes).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
MODE=${1:---build}
case "$MODE" in
  --example|--test|--bench|--build|--eval) ;;
  -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "setup.sh: unknown mode '$MODE' (try --help)" >&2; exit 2 ;;
esac

say() { printf 'setup: %s\n' "$*" >&2; }

# ---- packages ----
# Build: compiler, CMake, Ninja, pkg-config, the four libraries of the
# design card, and the history's SQLite and libpq.
PKGS=(gcc make cmake ninja-build pkg-config zlib1g-dev libcjson-dev
      libwebsockets-dev libcurl4-openssl-dev ca-certificates
      libsqlite3-dev libpq-dev)
# Graphviz's dot draws critical-graph.svg, the picture report.html shows
# (without it the report shows the graph as a tree).
if [ "$MODE" != --build ]; then PKGS+=(graphviz); fi
if [ "$MODE" = --test ] || [ "$MODE" = --bench ]; then
  # python3 serves test pages and plays a fake DevTools peer; the
  # end-to-end tests drive Debian's Chromium.
  PKGS+=(python3 chromium)
  # test_history starts a throwaway PostgreSQL server (not as root).
  PKGS+=(postgresql)
  # The fuzzers (tests/fuzz/) are libFuzzer's: clang and its runtime.
  # tests/style.sh checks the format (clang-format 14) and function
  # lengths (Universal Ctags).
  if [ "$MODE" = --test ]; then
    PKGS+=(clang libclang-rt-dev clang-format universal-ctags)
    # test_install and test_deb: the man page rendered and checked (man-db,
    # groff), the zsh completion read by zsh, and the .deb built (cpack's
    # DEB generator runs dpkg-shlibdeps, of dpkg-dev, and file).
    PKGS+=(man-db groff-base zsh dpkg-dev file)
    # test_tracker files issues on a real Redmine, started on loopback
    # (tests/agent/redmine.sh: WEBrick, not as root), and reads the
    # trackers' answers with curl.
    PKGS+=(redmine redmine-sqlite ruby-webrick curl)
  fi
elif [ "$MODE" = --example ]; then
  PKGS+=(chromium)
elif [ "$MODE" = --eval ]; then
  # The eval subjects are built on libraries from the npm registry; a node
  # that is already there (Debian's or another) is used as it is.
  PKGS+=(python3 chromium)
  command -v npm >/dev/null || PKGS+=(npm)
fi

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { say "need root or sudo to install: ${missing[*]}"; exit 1; }
    SUDO=sudo
  fi
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- build ----
JOBS=$(nproc 2>/dev/null || echo 2)
build() {  # build DIR [cmake args...]
  local dir=$1; shift
  cmake -S "$ROOT" -B "$ROOT/$dir" -G Ninja -DZC_WERROR=ON "$@" >/dev/null
  cmake --build "$ROOT/$dir" -j "$JOBS"
}
say "building in build/"
build build -DCMAKE_BUILD_TYPE=RelWithDebInfo

case "$MODE" in
  --build)
    say "done: build/zamcap"
    ;;
  --example)
    # The todo demo app (scenarios/demo/README.md): its NEW build's filter
    # got an O(n^2) pass in dedupeTitles. zamcap serves each build folder,
    # replays the Recorder scenario in interleaved pairs and compares.
    ex=zamcap-out/example
    rm -rf "$ex"
    say "zamcap scenarios/demo/todo.json --old scenarios/demo/todo/old --new scenarios/demo/todo/new"
    set +e
    build/zamcap scenarios/demo/todo.json --old scenarios/demo/todo/old \
      --new scenarios/demo/todo/new --out "$ex"
    rc=$?
    set -e
    # 1 means "regression-causes found": the example has one.
    if [ "$rc" -gt 1 ]; then exit "$rc"; fi
    say "exit code $rc ($([ $rc = 1 ] && echo 'regression-causes found' || echo 'none found'));"
    say "the report is in $ex/: report.html (open it in a browser),"
    say "summary.md, report.json, critical-graph.dot, traces/"
    ;;
  --eval)
    exec tests/eval/run.sh --zamcap="$ROOT/build/zamcap" "${@:2}"
    ;;
  --test)
    say "running the test suite"
    # label stress (test_io_hostile) is run by hand: ctest -L stress
    (cd build && ctest --output-on-failure -j "$JOBS" -LE stress)
    say "again under AddressSanitizer + UBSan (leaks checked)"
    build build-asan -DCMAKE_BUILD_TYPE=Debug -DZC_SANITIZE=ON
    (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --output-on-failure -j "$JOBS" -LE stress)
    # Each fuzzer for ZC_FUZZ_SECONDS (30) on its committed corpus; what it
    # finds is kept in build-fuzz/tests/fuzz/fuzz-artifacts/.
    say "the fuzzers, ${ZC_FUZZ_SECONDS:-30} s each (clang, ASan + UBSan)"
    cmake -S "$ROOT" -B "$ROOT/build-fuzz" -G Ninja -DZC_WERROR=ON \
      -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DZC_SANITIZE=ON -DZC_FUZZ=ON -DZC_FUZZ_SECONDS="${ZC_FUZZ_SECONDS:-30}" \
      >/dev/null
    cmake --build "$ROOT/build-fuzz" -j "$JOBS" --target zc_fuzzers
    (cd build-fuzz && ctest --output-on-failure -j "$JOBS" -L fuzz)
    ;;
  --bench)
    build/tests/zc_bench "${@:2}"
    echo
    bash tests/bench/capture.sh build/zamcap
    ;;
esac
