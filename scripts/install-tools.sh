#!/bin/sh
# Installs the outside tools of taifu's xboard checks (Debian/Ubuntu):
# Sjaak II (an engine playing Tori shogi, /usr/games/sjaakii), XBoard (the
# GUI, /usr/games/xboard), Xvfb (a display for it without a screen) and
# ImageMagick's import (the screenshot). CI (go test ./...) needs none of them.
set -eu
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update
$sudo apt-get install -y sjaakii xboard xvfb x11-apps imagemagick
