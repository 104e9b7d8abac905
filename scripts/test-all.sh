#!/usr/bin/env bash
# The README's test command: installs the Debian packages the suite drives when they are missing, then runs it all.
# Arguments go to vitest (for example a reporter). Installing needs root, or sudo without a password.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)                               # test/browser/ (reference and admin pages)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light) # test/scale-out/ (nginx in front)
command -v redis-server >/dev/null || missing+=(redis-server)                  # tests that stop a Redis of their own

if [ ${#missing[@]} -gt 0 ]; then
  echo "test-all: installing ${missing[*]} (Debian packages the suite needs)" >&2
  if [ "$(id -u)" = 0 ]; then as_root=(); elif sudo -n true 2>/dev/null; then as_root=(sudo -n); else
    echo "test-all: ${missing[*]} missing and this user cannot install them; as root run:" >&2
    echo "  apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  command -v apt-get >/dev/null || { echo "test-all: no apt-get here; install ${missing[*]} yourself" >&2; exit 1; }
  for attempt in 1 2 3 4 5 6 7 8 9 10; do   # another job may hold the dpkg lock for a while
    if "${as_root[@]}" apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}"; then
      break
    fi
    [ "$attempt" = 10 ] && { echo "test-all: apt-get failed 10 times" >&2; exit 1; }
    echo "test-all: apt-get failed (dpkg busy?), retrying in 15 s ($attempt/10)" >&2
    sleep 15
  done
fi

exec npx vitest run "$@"
