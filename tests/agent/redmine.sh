#!/bin/sh
# A throwaway Redmine for test_tracker, from Debian's redmine and
# redmine-sqlite packages: redmine.sh start DIR [FORMAT] prints "URL KEY",
# the base URL of a Redmine served by WEBrick on 127.0.0.1 with its REST
# API on, its text formatting FORMAT (common_mark by default; textile,
# markdown), a public project "zamcap", and the admin's API key; its copy
# of the application, SQLite database and files are in DIR. redmine.sh
# stop DIR stops it. Never as root: as root (CI) it runs as nobody, which
# then owns DIR. Exit 77: Redmine is not installed.
set -eu
cmd=$1 dir=$2 format=${3:-common_mark}
case $format in
textile | markdown | common_mark) ;;
*) echo "redmine.sh: FORMAT is textile, markdown or common_mark" >&2; exit 2 ;;
esac
src=/usr/share/redmine
if [ ! -x "$src/bin/rails" ] || [ ! -f /var/lib/redmine/Gemfile.lock ]; then
  echo "no Redmine (apt-get install redmine redmine-sqlite)" >&2
  exit 77
fi
as=""
if [ "$(id -u)" = 0 ]; then
  as="setpriv --reuid=nobody --regid=nogroup --clear-groups --"
fi
cd "$dir"
export RAILS_ENV=production HOME="$dir" REDMINE_LANG=en
case $cmd in
start)
  # A copy of the application whose instance (config, files, logs) lives
  # here: Debian's own instance under /var/lib/redmine stays untouched.
  cp -a "$src" app
  rm -f app/instances app/Gemfile.lock
  cp /var/lib/redmine/Gemfile.lock app/Gemfile.lock
  mkdir -p app/instances/default/config app/instances/default/files \
    app/instances/default/log app/instances/default/tmp
  printf 'production:\n  adapter: sqlite3\n  database: %s/redmine.db\n' \
    "$dir" >app/instances/default/config/database.yml
  od -An -tx1 -N32 /dev/urandom | tr -d ' \n' \
    >app/instances/default/config/secret_key.txt
  # Ruby 3 has no WEBrick of its own: Debian's ruby-webrick, named here.
  echo 'gem "webrick"' >app/Gemfile.local
  cat >setup.rb <<EOF
Setting.rest_api_enabled = '1'
Setting.text_formatting = '$format'
u = User.find_by_login('admin')
u.must_change_passwd = false
u.save!
p = Project.new(name: 'zamcap', identifier: 'zamcap', is_public: true)
p.trackers = Tracker.all
p.enabled_module_names = ['issue_tracking']
p.save!
File.write(ARGV[0], u.api_key)
EOF
  [ -z "$as" ] || chown -R nobody:nogroup .
  (cd app && $as bin/rake db:migrate && $as bin/rake redmine:load_default_data &&
    $as bin/rails runner ../setup.rb "$dir/key") >setup.log 2>&1
  # A free port: the kernel's pick for a socket bound a moment ago.
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  (cd app && exec $as bin/rails server -u webrick -b 127.0.0.1 -p "$port") \
    >server.log 2>&1 &
  echo $! >pid
  i=0
  until curl -sf -o /dev/null "http://127.0.0.1:$port/issue_statuses.json"; do
    i=$((i + 1))
    if [ $i -gt 120 ]; then
      echo "Redmine did not answer on 127.0.0.1:$port (see $dir/server.log)" >&2
      exit 1
    fi
    sleep 0.5
  done
  echo "http://127.0.0.1:$port $(cat key)"
  ;;
stop)
  if [ -f pid ]; then
    pid=$(cat pid)
    kill "$pid" 2>/dev/null || true
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 40 ]; do
      i=$((i + 1))
      sleep 0.25
    done
  fi
  ;;
esac
