#!/bin/sh
# A throwaway PostgreSQL for test_history, from Debian's postgresql
# package: pgserver.sh start DIR [PASSWORD] prints the URI of a server
# whose data and Unix socket are in DIR (no TCP: listen_addresses is
# empty); with PASSWORD, its user zamcap needs it (SCRAM), else it is
# trusted. pgserver.sh stop DIR stops it. Never as root: as root (CI) the
# server runs as nobody, which then owns DIR. Exit 77: no server installed.
set -eu
cmd=$1 dir=$2 pw=${3:-}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "no PostgreSQL server (apt-get install postgresql)" >&2
  exit 77
fi
as=""
if [ "$(id -u)" = 0 ]; then
  as="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
fi
cd "$dir"
case $cmd in
start)
  mkdir -p sock
  [ -z "$as" ] || chown -R nobody:nogroup .
  chmod 755 . sock
  if [ -n "$pw" ]; then
    printf '%s\n' "$pw" >pwfile
    [ -z "$as" ] || chown nobody:nogroup pwfile
    $as "$bin/initdb" -D data -U zamcap -A scram-sha-256 --pwfile=pwfile \
      --no-sync >initdb.log 2>&1
    rm -f pwfile
  else
    $as "$bin/initdb" -D data -U zamcap -A trust --no-sync >initdb.log 2>&1
  fi
  $as "$bin/pg_ctl" -D data -l server.log -w -t 60 \
    -o "-c listen_addresses='' -k $dir/sock -c fsync=off" start >/dev/null
  echo "postgresql:///postgres?host=$dir/sock&user=zamcap"
  ;;
stop)
  $as "$bin/pg_ctl" -D data -m fast -w stop >/dev/null
  ;;
esac
