#!/usr/bin/env bash
# Install the referee on a Raspberry Pi 3, 4, 5 or Zero 2 W running Raspberry Pi OS Bookworm or
# Trixie, as root, from a checkout of this repository:
#   sudo deploy/install.sh             # install, or update: running it again changes nothing more
#   sudo deploy/install.sh --dry-run   # print every step and every line it would write; touch nothing
#   deploy/install.sh --root DIR       # a fake tree (tests): edit the files under DIR, only print commands
#
# It creates the `pegs` user (groups gpio, spi, dialout), a virtual environment in /opt/pegs, the
# config /etc/pegs/pegs.toml (kept if present), the udev rules (/dev/pegs-board for the sensor board,
# /dev/pio0 for the Pi 5's NeoPixel driver) and the systemd unit; and sets the boot settings the
# NeoPixels on SPI (GPIO10, leds.backend = "neopixel-spi") need:
#   config.txt   dtparam=spi=on, and a steady core clock, which the SPI clock is divided from:
#                Pi 4 / 400 / CM4: core_freq=500 + core_freq_min=500; Pi 3 / Zero 2 W: core_freq=250;
#                Pi 5: nothing (its SPI runs off RP1's own clock). Written under [all], once.
#   cmdline.txt  spidev.bufsiz=65536: spidev refuses an SPI message over 4096 bytes unless told
#                otherwise, and a frame of 24 bytes a pixel sent in pieces shows its tail late.
# Those take effect at the next boot: it says so at the end, and never reboots by itself.
# `pegs doctor` checks each of these steps.
set -euo pipefail

usage() {
    echo "usage: $0 [--dry-run] [--root DIR]"
}

here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(dirname "$here")"
dry_run=0
root=""
while (($# > 0)); do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --root)
            [[ $# -ge 2 ]] || { usage >&2; exit 2; }
            root="$2"
            shift
            ;;
        --root=*) root="${1#--root=}" ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
if [[ -n $root ]]; then
    [[ -d $root ]] || { echo "install.sh: --root $root is not a directory" >&2; exit 2; }
    root="$(cd "$root" && pwd)"
    [[ $root == / ]] && root=""
fi
# Files are written unless --dry-run; commands run only on the real system (no --root, no --dry-run).
write_files=$((dry_run == 0))
run_commands=0
[[ $dry_run -eq 0 && -z $root ]] && run_commands=1

if ((run_commands)) && [[ $EUID -ne 0 ]]; then
    echo "install.sh: run me as root (sudo $0)" >&2
    exit 2
fi
if [[ -n $root ]]; then
    echo "# --root $root: files are $( ((write_files)) && echo written || echo shown) under it;" \
        "system commands are only printed"
elif ((dry_run)); then
    echo "# --dry-run: every step is printed, nothing is changed"
fi

at() { # a path inside the system being installed
    printf '%s%s' "$root" "$1"
}

run() { # a system command: printed, and run on the real system
    echo "+ $*"
    if ((run_commands)); then "$@"; fi
}

put_text() { # put_text PATH MODE TEXT: PATH holds exactly TEXT afterwards; status 0 if it had to change
    local path="$1" mode="$2" text="$3" file
    file="$(at "$path")"
    if [[ -f $file ]] && [[ "$(cat "$file"; echo x)" == "${text}x" ]]; then
        echo "= $path (unchanged)"
        return 1
    fi
    echo "+ write $path"
    if ((write_files)); then
        mkdir -p "$(dirname "$file")"
        if [[ -e $file ]]; then
            printf '%s' "$text" >"$file" # keeps its mode (the boot partition is FAT: no chmod there)
        else
            printf '%s' "$text" >"$file"
            chmod "$mode" "$file"
        fi
    fi
    return 0
}

put_file() { # put_file SOURCE PATH MODE (the x keeps the file's trailing newline through $(...))
    local text
    text="$(cat "$1"; echo x)"
    put_text "$2" "$3" "${text%x}" || true
}

# -- the machine ---------------------------------------------------------------------------------

model=""
[[ -r "$(at /proc/device-tree/model)" ]] && model="$(tr -d '\0' <"$(at /proc/device-tree/model)")"
family=""    # 5, 4, 3 (Pi 3 and Zero 2 W: the BCM2710), old, or "" when not a Pi
filters=""   # the config.txt model filters that apply to this board (Raspberry Pi docs, conditional.adoc)
case "$model" in
    "Raspberry Pi 500"*) family=5 filters="pi5 pi500" ;;
    "Raspberry Pi Compute Module 5"*) family=5 filters="pi5 cm5" ;;
    "Raspberry Pi 5"*) family=5 filters="pi5" ;;
    "Raspberry Pi 400"*) family=4 filters="pi4 pi400" ;;
    "Raspberry Pi Compute Module 4S"*) family=4 filters="pi4 cm4s" ;;
    "Raspberry Pi Compute Module 4"*) family=4 filters="pi4 cm4" ;;
    "Raspberry Pi 4"*) family=4 filters="pi4" ;;
    "Raspberry Pi 3 Model B Plus"* | "Raspberry Pi 3 Model A Plus"*) family=3 filters="pi3 pi3+" ;;
    "Raspberry Pi Compute Module 3 Plus"*) family=3 filters="pi3 cm3 cm3+" ;;
    "Raspberry Pi Compute Module 3"*) family=3 filters="pi3 cm3" ;;
    "Raspberry Pi 3"*) family=3 filters="pi3" ;;
    "Raspberry Pi Zero 2"*) family=3 filters="pi0 pi0w pi02" ;;
    "Raspberry Pi"*) family=old filters="" ;;
esac
declare -a core_lines=()
case "$family" in
    4) core_lines=("core_freq=500" "core_freq_min=500") ;;
    3) core_lines=("core_freq=250") ;;
esac

codename=""
if [[ -r "$(at /etc/os-release)" ]]; then
    codename="$(sed -n 's/^VERSION_CODENAME=//p' "$(at /etc/os-release)" | tr -d '"\047' | head -n 1)"
fi
case "$codename" in
    bookworm) os=bookworm ;;
    trixie | forky | sid) os=trixie ;;
    buster | bullseye | stretch | jessie)
        echo "install.sh: this is $codename; the referee needs Raspberry Pi OS Bookworm or later (Python 3.11+)" >&2
        exit 2
        ;;
    *)
        echo "# warning: unknown system ${codename:-(no /etc/os-release)}: set up as for Trixie" >&2
        os=trixie
        ;;
esac
# Bookworm's Python 3.11 has lgpio wheels on PyPI. Trixie's 3.13 has none: pip would build lgpio
# from source, which needs SWIG and liblgpio. So on Trixie the venv sees the system's
# python3-lgpio (from the Raspberry Pi archive, not Debian's), and should pip build lgpio after
# all, PYPI=1 makes lgpio's setup.py link its own C sources in (SWIG only, no liblgpio).
declare -a apt_packages=(python3-venv python3-dev gcc)
declare -a venv_options=()
declare -a pip_env=()
if [[ $os == trixie ]]; then
    apt_packages+=(swig python3-lgpio)
    venv_options=(--system-site-packages)
    pip_env=(env PYPI=1)
fi
echo "# ${model:-not a Raspberry Pi (no /proc/device-tree/model)}; ${codename:-unknown system}"

# -- packages, user, program ---------------------------------------------------------------------

run apt-get update
if ((run_commands)) && [[ $os == trixie ]] && ! apt-cache show python3-lgpio >/dev/null 2>&1; then
    echo "# python3-lgpio is not in the apt sources (it comes from the Raspberry Pi archive):" \
        "pip builds lgpio with swig instead"
    declare -a kept=()
    for package in "${apt_packages[@]}"; do
        [[ $package == python3-lgpio ]] || kept+=("$package")
    done
    apt_packages=("${kept[@]}")
fi
run apt-get install -y --no-install-recommends "${apt_packages[@]}"
for group in gpio spi dialout; do
    if ((run_commands)); then
        getent group "$group" >/dev/null || run groupadd --system "$group"
    else
        echo "+ groupadd --system $group  # unless it exists"
    fi
done
if ((run_commands)); then
    id pegs >/dev/null 2>&1 || run useradd --system --home-dir /var/lib/pegs --shell /usr/sbin/nologin pegs
else
    echo "+ useradd --system --home-dir /var/lib/pegs --shell /usr/sbin/nologin pegs  # unless it exists"
fi
run usermod -a -G gpio,spi,dialout pegs
run mkdir -p /opt/pegs /var/lib/pegs
# The checkout less what is not the program: git history, a development venv, caches, game records.
declare -a excludes=(--exclude=./.git --exclude=./.venv --exclude=./data --exclude=./build --exclude=./test-artifacts
    --exclude='./*.egg-info' --exclude='*/__pycache__' --exclude=./.pytest_cache --exclude=./.mypy_cache
    --exclude=./.ruff_cache --exclude=./.hypothesis)
run rm -rf /opt/pegs/src
run mkdir -p /opt/pegs/src
echo "+ tar -C $source_dir ${excludes[*]} -cf - . | tar -C /opt/pegs/src -xf -"
if ((run_commands)); then
    tar -C "$source_dir" "${excludes[@]}" -cf - . | tar -C /opt/pegs/src -xf -
fi
if ((run_commands)) && [[ -x /opt/pegs/venv/bin/python ]]; then
    # A venv from before a system upgrade (Bookworm's 3.11, now Trixie's 3.13) is made anew.
    version='import sys; print(sys.version_info[:2])'
    [[ "$(/opt/pegs/venv/bin/python -c "$version" 2>&1)" == "$(python3 -c "$version")" ]] || venv_options+=(--clear)
fi
run python3 -m venv "${venv_options[@]}" /opt/pegs/venv
run "${pip_env[@]}" /opt/pegs/venv/bin/pip install --upgrade "/opt/pegs/src[pi]"
run chown -R pegs:pegs /var/lib/pegs

# -- files: config, udev rules, systemd unit -----------------------------------------------------

if [[ -e "$(at /etc/pegs/pegs.toml)" ]]; then
    echo "= /etc/pegs/pegs.toml (kept: yours)"
else
    put_file "$here/pegs.toml" /etc/pegs/pegs.toml 0644
fi
put_file "$here/99-pegs-board.rules" /etc/udev/rules.d/99-pegs-board.rules 0644
put_file "$here/99-pegs-pio.rules" /etc/udev/rules.d/99-pegs-pio.rules 0644
put_file "$here/pegs.service" /etc/systemd/system/pegs.service 0644
run udevadm control --reload-rules
run udevadm trigger --subsystem-match=tty --subsystem-match='*-pio'
run systemctl daemon-reload

# -- boot settings: config.txt and cmdline.txt ---------------------------------------------------

boot=""
for place in /boot/firmware /boot; do # Bookworm and later: /boot/firmware; older: /boot
    if [[ -f "$(at "$place/config.txt")" ]]; then
        boot="$place"
        break
    fi
done
# In force from this config.txt for this board, our block left out: "key=value" and "dtparam:name=value".
# The last value wins; a line counts only under [all] or this board's model filter, not under a
# filter install.sh cannot judge ([gpio4=1], [EDID=...], [HDMI:0], [0x1234abcd], [tryboot]).
in_force() {
    awk -v matches=" $filters " '
        BEGIN { models = " pi0 pi0w pi02 pi1 pi2 pi3 pi3+ pi4 pi400 pi5 pi500 cm1 cm3 cm3+ cm4 cm4s cm5 "
                model_ok = 1; other_ok = 1 }
        function trim(s) { gsub(/^[ \t\r]+|[ \t\r]+$/, "", s); return s }
        /^# >>> pegs/ { skipping = 1 }
        skipping { if ($0 ~ /^# <<< pegs/) skipping = 0; next }
        {
            line = $0; sub(/#.*/, "", line); line = trim(line)
            if (line ~ /^\[.*\]$/) {
                name = tolower(trim(substr(line, 2, length(line) - 2)))
                if (name == "all") { model_ok = 1; other_ok = 1 }
                else if (name == "none") model_ok = 0
                else if (index(models, " " name " ")) model_ok = index(matches, " " name " ") > 0
                else other_ok = 0
                next
            }
            eq = index(line, "=")
            if (!model_ok || !other_ok || eq == 0) next
            key = trim(substr(line, 1, eq - 1)); value = trim(substr(line, eq + 1))
            if (key == "dtparam") {
                n = split(value, params, ",")
                for (i = 1; i <= n; i++) {
                    p = trim(params[i]); peq = index(p, "=")
                    if (peq) dt[trim(substr(p, 1, peq - 1))] = tolower(trim(substr(p, peq + 1)))
                    else dt[p] = ""
                }
            } else values[key] = value
        }
        END { for (k in values) print k "=" values[k]; for (k in dt) print "dtparam:" k "=" dt[k] }
    ' "$1"
}

boot_changed=0
if [[ -z $family ]]; then
    echo "# not a Raspberry Pi: config.txt and cmdline.txt are left alone"
elif [[ -z $boot ]]; then
    echo "# warning: no config.txt in /boot/firmware or /boot: set dtparam=spi=on and spidev.bufsiz=65536 by hand" >&2
else
    [[ $family == old ]] && echo "# warning: $model is too slow for the referee: use a Pi 3, 4, 5 or Zero 2 W" >&2
    config="$(at "$boot/config.txt")"
    settings="$(in_force "$config")"
    declare -a wanted=()
    spi_on=0
    if grep -q '^dtparam:spi=' <<<"$settings"; then # a bare "dtparam=spi" is on too
        case "$(sed -n 's/^dtparam:spi=//p' <<<"$settings")" in on | true | yes | 1 | "") spi_on=1 ;; esac
    fi
    ((spi_on)) || wanted+=("dtparam=spi=on")
    for line in "${core_lines[@]}"; do
        grep -qxF "$line" <<<"$settings" || wanted+=("$line")
    done
    # The file without our block (a trailing newline ensured), then the block again at the end, so
    # that its values are the last ones and a second run writes exactly the same bytes.
    text="$(awk '/^# >>> pegs/ { skipping = 1 } !skipping { print } /^# <<< pegs/ { skipping = 0 }' "$config"; echo x)"
    text="${text%x}"
    if ((${#wanted[@]} > 0)); then
        text+="# >>> pegs: NeoPixels on SPI (GPIO10) need SPI on and a steady core clock (deploy/install.sh)"$'\n'
        text+="[all]"$'\n'
        for line in "${wanted[@]}"; do
            text+="$line"$'\n'
            echo "#   $boot/config.txt: $line"
        done
        text+="# <<< pegs"$'\n'
    fi
    put_text "$boot/config.txt" 0755 "$text" && boot_changed=1

    # cmdline.txt is one line: spidev.bufsiz=65536 on it, replacing a smaller value.
    cmdline="$(at "$boot/cmdline.txt")"
    if [[ -f $cmdline ]]; then
        IFS= read -r first <"$cmdline" || true
        rest="$(tail -n +2 "$cmdline"; echo x)"
        rest="${rest%x}"
        read -ra tokens <<<"$first"
        has=0 found=""
        for token in "${tokens[@]}"; do
            if [[ $token == spidev.bufsiz=* ]]; then
                has=1 found="${token#spidev.bufsiz=}"
            fi
        done
        if [[ $found =~ ^[0-9]+$ ]] && ((10#$found >= 65536)); then
            new="$first"
        elif ((has)); then
            new=""
            for token in "${tokens[@]}"; do
                [[ $token == spidev.bufsiz=* ]] && token="spidev.bufsiz=65536"
                new+="${new:+ }$token"
            done
        else
            new="${first%"${first##*[![:space:]]}"}"
            new+="${new:+ }spidev.bufsiz=65536"
        fi
        [[ $new != "$first" ]] && echo "#   $boot/cmdline.txt: spidev.bufsiz=65536"
        put_text "$boot/cmdline.txt" 0755 "$new"$'\n'"$rest" && boot_changed=1
    else
        echo "# warning: no $boot/cmdline.txt: add spidev.bufsiz=65536 to the kernel command line by hand" >&2
    fi
fi

# -- start ---------------------------------------------------------------------------------------

reboot=0
if [[ -n $family && -n $boot ]]; then
    # The settings are in force once the kernel shows them: the SPI device, and spidev's bufsiz.
    bufsiz="$(cat "$(at /sys/module/spidev/parameters/bufsiz)" 2>/dev/null || echo 0)"
    if ((boot_changed)) || [[ ! -e "$(at /dev/spidev0.0)" ]] || ! [[ $bufsiz =~ ^[0-9]+$ ]]; then
        reboot=1
    elif ((10#$bufsiz < 65536)); then
        reboot=1
    fi
fi
if ((reboot)); then
    run systemctl enable pegs.service
else
    run systemctl enable --now pegs.service
    run systemctl restart pegs.service
fi
echo "installed: the board's page is at http://$(hostname).local:8080/ (journalctl -u pegs -f for the logs)"
if ((reboot)); then
    echo "REBOOT NEEDED: $boot/config.txt and cmdline.txt (SPI, spidev.bufsiz, the core clock) take effect" \
        "at the next boot; pegs starts then. Run: sudo reboot"
fi
