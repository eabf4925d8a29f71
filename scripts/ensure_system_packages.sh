#!/usr/bin/env bash
# Installs the Debian packages the project needs, only when missing:
#   fonts-noto-cjk  Japanese glyphs for the demo library and icons
#   chromium        the browser of the end-to-end tests and benchmarks (with --test)
set -euo pipefail
wanted=(fonts-noto-cjk)
if [[ "${1:-}" == "--test" ]]; then
  wanted+=(chromium)
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
