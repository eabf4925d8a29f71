#!/usr/bin/env bash
# Installs the Debian packages the project needs, only when missing:
#   fonts-noto-cjk  Japanese glyphs for the demo library and icons
#   libarchive13    RAR, 7z and ZIP (PPMd, XZ, Zstandard) chapters, through libarchive-c
#   unar            solid RAR4 chapters, which Debian's libarchive cannot decompress
#   chromium        the browser of the benchmarks (with --test)
#   chromium-headless-shell  the browser of the end-to-end tests (with --test)
#   7zip, qpdf      write the ZIP, 7z and encrypted PDF files the tests read (with --test)
#   wrk             the load benchmark's HTTP load generator (with --test)
#   nginx           the production front (deploy/nginx.conf) that tests/e2e/test_production_front.py runs
#                   (with --test; production installs it as README "Production front" says)
#   a Java runtime  runs the Nu Html Checker (vnu.jar) of tests/e2e/test_validators.py (with --test;
#                   default-jre-headless, unless a java is already on PATH)
set -euo pipefail
libarchive=libarchive13
if ! dpkg-query -W -f='${Status}' libarchive13 2>/dev/null | grep -q "install ok installed" \
  && dpkg-query -W libarchive13t64 >/dev/null 2>&1; then
  libarchive=libarchive13t64  # Debian 13 names it so
fi
wanted=(fonts-noto-cjk "$libarchive" unar)
if [[ "${1:-}" == "--test" ]]; then
  wanted+=(chromium chromium-headless-shell 7zip qpdf wrk nginx)
  command -v java >/dev/null || wanted+=(default-jre-headless)
fi
missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
echo "Installing Debian packages: ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "error: ${missing[*]} missing and not root; run: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
