#!/usr/bin/env bash
# Install the referee on a Raspberry Pi (Raspberry Pi OS, bookworm or later), as root:
#   sudo deploy/install.sh            # from a checkout of this repository
#   sudo deploy/install.sh --dry-run  # print what would be done
# It creates the `pegs` user, a virtual environment in /opt/pegs, the config in /etc/pegs,
# the udev rule for the sensor board and the systemd unit, then starts the daemon.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(dirname "$here")"
dry_run=0
[[ "${1:-}" == "--dry-run" ]] && dry_run=1

run() {
    echo "+ $*"
    if [[ $dry_run -eq 0 ]]; then "$@"; fi
}

if [[ $dry_run -eq 0 && $EUID -ne 0 ]]; then
    echo "install.sh: run me as root (sudo $0)" >&2
    exit 2
fi

run apt-get update
run apt-get install -y --no-install-recommends python3-venv python3-dev gcc
for group in gpio spi dialout; do
    getent group "$group" >/dev/null || run groupadd --system "$group"
done
id pegs >/dev/null 2>&1 || run useradd --system --home-dir /var/lib/pegs --shell /usr/sbin/nologin pegs
run usermod -a -G gpio,spi,dialout pegs
run mkdir -p /opt/pegs /etc/pegs /var/lib/pegs
run rm -rf /opt/pegs/src
run cp -r "$source_dir" /opt/pegs/src
run python3 -m venv /opt/pegs/venv
run /opt/pegs/venv/bin/pip install --upgrade "/opt/pegs/src[pi]"
[[ -e /etc/pegs/pegs.toml ]] || run install -m 0644 "$here/pegs.toml" /etc/pegs/pegs.toml
run chown -R pegs:pegs /var/lib/pegs
run install -m 0644 "$here/99-pegs-board.rules" /etc/udev/rules.d/99-pegs-board.rules
run udevadm control --reload-rules
run udevadm trigger --subsystem-match=tty
run install -m 0644 "$here/pegs.service" /etc/systemd/system/pegs.service
run systemctl daemon-reload
run systemctl enable --now pegs.service
echo "installed: the board's page is at http://$(hostname).local:8080/ (journalctl -u pegs -f for the logs)"
