#!/usr/bin/env bash
# Installs the Debian packages Meetcast runs and tests with, only where they are missing.
set -euo pipefail
missing=()
command -v janus >/dev/null 2>&1 || missing+=(janus)
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# The broadcast composer: a virtual screen and a sound server for the meeting's page and its audio.
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v pulseaudio >/dev/null 2>&1 || missing+=(pulseaudio)
command -v pacat >/dev/null 2>&1 || missing+=(pulseaudio-utils)
# The local-other-user test reads the process list as another user would.
command -v ps >/dev/null 2>&1 || missing+=(procps)
# setpriv: managed children (Janus, the composer's) die with their server process (platform/bound-children.ts).
command -v setpriv >/dev/null 2>&1 || missing+=(util-linux)
# The TURN relay the server starts when TURN_URL is not set (ADR 035), and iptables for the tests that
# put a participant behind a NAT or a UDP-dropping firewall in a network namespace.
command -v turnserver >/dev/null 2>&1 || missing+=(coturn)
command -v iptables >/dev/null 2>&1 || missing+=(iptables)
# The load balancer of the two-process end-to-end test.
command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
# nginx's RTMP module: an ingest that refuses a publisher, for the RTMP publisher's tests.
[ -e /usr/lib/nginx/modules/ngx_rtmp_module.so ] || missing+=(libnginx-mod-rtmp)
# The TLS reverse proxy of deploy/Caddyfile, and NSS's certutil to make a test browser trust its
# internal certificate authority (e2e/tls-proxy.spec.ts).
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
command -v certutil >/dev/null 2>&1 || missing+=(libnss3-tools)
# Fonts so that Chinese, Japanese, Greek and Arabic render in screenshots and tests.
dpkg -s fonts-noto-core >/dev/null 2>&1 || missing+=(fonts-noto-core)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing+=(fonts-noto-cjk)
# Colour emoji in the broadcast's ticker, banner and chat cards (the composer's Chromium draws them).
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || missing+=(fonts-noto-color-emoji)
# The strict calendar-file check of the server tests (scripts/ics-strict-check.py).
dpkg -s python3-icalendar >/dev/null 2>&1 || missing+=(python3-icalendar)
# Java for the Nu HTML checker (vnu-jar) of the end-to-end suite.
command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing system packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
