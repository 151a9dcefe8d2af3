#!/usr/bin/env bash
# The code's shape, checked as a test (STYLE.md): every C file is in
# .clang-format's format (clang-format 14, Debian 12's), and no function
# is over 120 lines (Universal Ctags gives each function's end). Prints
# each offender; exits 1 if there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_LINES=${ZC_MAX_FUNCTION_LINES:-120}

if [ -d .git ] && command -v git >/dev/null; then
  mapfile -t files < <(git ls-files '*.c' '*.h')
else
  mapfile -t files < <(find core cdp scenarios analysis agent tests \
    -name '*.[ch]' -not -path '*/build*' | sort)
fi
[ "${#files[@]}" -gt 0 ] || { echo "style: no C files found" >&2; exit 1; }

fail=0
CF=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$CF" ]; then
  echo "style: clang-format is not installed (tests/setup.sh --test installs it)" >&2
  exit 1
fi
case "$("$CF" --version)" in
  *" version 14."*) ;;
  *) echo "style: $CF is not clang-format 14: $("$CF" --version)" >&2; exit 1 ;;
esac
unformatted=()
for f in "${files[@]}"; do
  if ! "$CF" --dry-run -Werror "$f" >/dev/null 2>&1; then unformatted+=("$f"); fi
done
if [ "${#unformatted[@]}" -gt 0 ]; then
  echo "style: not in .clang-format's format (run: clang-format -i FILE):"
  printf '  %s\n' "${unformatted[@]}"
  fail=1
fi

if ! command -v ctags >/dev/null || ! ctags --version | grep -q Universal; then
  echo "style: Universal Ctags is not installed (tests/setup.sh --test installs it)" >&2
  exit 1
fi
long=$(ctags -x --c-kinds=f --_xformat='%F:%n %N %e' "${files[@]}" |
  awk -v max="$MAX_LINES" '{ n = $3 - substr($1, index($1, ":") + 1) + 1;
    if (n > max) printf "  %s %s: %d lines\n", $1, $2, n }')
if [ -n "$long" ]; then
  echo "style: functions over $MAX_LINES lines:"
  echo "$long"
  fail=1
fi
# Every document zamcap writes goes through zc_write_atomic, which masks
# the registered secrets on the way (issue 38: bisect's reports were
# written past the masks). A new place that opens a file to write fails
# here until it is either written through zc_write_atomic or listed below
# with the reason it may not be.
allowed_writers='^(core/zc\.c|agent/gendoc\.c|cdp/trace\.c|agent/capture/run\.c|cdp/browser\.c|agent/session/exec\.c|scenarios/replay\.c):'
# core/zc.c: zc_write_atomic itself; gendoc.c: the man page at build time;
# cdp/trace.c: Chrome's trace as it streams, then rewritten masked by
# capture/run.c (scrub_trace); cdp/browser.c and session/exec.c: the
# logs of Chrome and of --build commands, which are their programs' own
# output; scenarios/replay.c: a failed step's screenshot (PNG bytes).
writers=$(grep -nE 'fopen\([^)]*"[wa]|O_WRONLY *\||O_CREAT|gzopen\([^)]*"w' \
  $(printf '%s\n' "${files[@]}" | grep -E '^(core|cdp|scenarios|analysis|agent)/' |
    grep '\.c$') | grep -vE "$allowed_writers" || true)
if [ -n "$writers" ]; then
  echo "style: files opened to write outside zc_write_atomic (see tests/style.sh):"
  echo "$writers" | sed 's/^/  /'
  fail=1
fi

[ "$fail" = 0 ] && echo "style: ${#files[@]} files formatted, no function over $MAX_LINES lines"
exit "$fail"
