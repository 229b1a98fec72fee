#!/usr/bin/env bash
# Install the referee on a Raspberry Pi 3, 4, 5 or Zero 2 W running Raspberry Pi OS Bookworm or
# Trixie, as root, from a checkout of this repository (or an unpacked release archive), from any
# working directory:
#   sudo ~/pegs/deploy/install.sh --players 6   # install for a board of 6 players (2, 4, 6, 8 or 10)
#   sudo ~/pegs/deploy/install.sh               # update: the program again, the config kept as it is
#   sudo /opt/pegs/src/deploy/install.sh --players 8   # the installed copy: the same, without copying
#   sudo deploy/install.sh --dry-run   # print every step and every line it would write; touch nothing
#   deploy/install.sh --root DIR       # a fake tree (tests): edit the files under DIR, only print commands
# Running it again changes nothing more.
#
# It copies the checkout to /opt/pegs/src (into /opt/pegs/src.new, then renamed into place; nothing
# to copy when it runs from /opt/pegs/src itself), creates the `pegs` user (groups gpio, spi,
# dialout), a virtual environment in /opt/pegs/venv with the link /usr/local/bin/pegs to its `pegs`
# (so `pegs doctor` works from anywhere), the config /etc/pegs/pegs.toml (kept if present; --players
# sets its one line `players = N`), the udev rules (/dev/pegs-board for the sensor board, /dev/pio0
# for the Pi 5's NeoPixel driver) and the systemd unit; and sets the boot settings the NeoPixels on
# SPI (GPIO10, leds.backend = "neopixel-spi") need:
#   config.txt   dtparam=spi=on, and a steady core clock, which the SPI clock is divided from:
#                Pi 4 / 400 / CM4: core_freq=500 + core_freq_min=500; Pi 3 / Zero 2 W: core_freq=250;
#                Pi 5: nothing (its SPI runs off RP1's own clock). Written under [all], once.
#   cmdline.txt  spidev.bufsiz=65536: spidev refuses an SPI message over 4096 bytes unless told
#                otherwise, and a frame of 24 bytes a pixel sent in pieces shows its tail late.
# Those take effect at the next boot: it says so at the end, and never reboots by itself.
# `pegs doctor` checks each of these steps.
set -euo pipefail

usage() {
    echo "usage: $0 [--players N] [--dry-run] [--root DIR]"
    echo "  --players N  the players at the board: 2, 4, 6, 8 or 10 (2 and 4 play on a 4-sided board);"
    echo "               sets players = N in /etc/pegs/pegs.toml, which is otherwise kept as it is"
    echo "  --dry-run    print every step and every line it would write; change nothing"
    echo "  --root DIR   install into the fake tree DIR (tests): files written there, commands only printed"
}

here="$(dirname "$(realpath "$0")")" # where this script is, from any working directory
source_dir="$(dirname "$here")"
dry_run=0
root=""
players=""
players_given=0
while (($# > 0)); do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --root)
            [[ $# -ge 2 ]] || { usage >&2; exit 2; }
            root="$2"
            shift
            ;;
        --root=*) root="${1#--root=}" ;;
        --players)
            [[ $# -ge 2 ]] || { usage >&2; exit 2; }
            players="$2" players_given=1
            shift
            ;;
        --players=*) players="${1#--players=}" players_given=1 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
if [[ -n $root ]]; then
    [[ -d $root ]] || { echo "install.sh: --root $root is not a directory" >&2; exit 2; }
    root="$(cd "$root" && pwd -P)"
    [[ $root == / ]] && root=""
fi
case "$players_given:$players" in
    0: | 1:2 | 1:4 | 1:6 | 1:8 | 1:10) ;;
    *)
        echo "install.sh: --players $players: the players at the board are 2, 4, 6, 8 or 10" \
            "(2 and 4 play on a 4-sided board); nothing was changed" >&2
        exit 2
        ;;
esac
if [[ ! -f $source_dir/pyproject.toml || ! -f $here/pegs.service ]]; then
    echo "install.sh: $source_dir is not a copy of the pegs repository (no pyproject.toml):" \
        "run the install.sh of a checkout" >&2
    exit 2
fi
# The copy in /opt/pegs/src is made from the checkout this script is in; when it runs from that copy
# itself, there is nothing to copy. A checkout inside /opt/pegs (or /opt/pegs inside it) would be
# copied into itself.
installed_copy=0
source_real="$(realpath -m "$source_dir")"
pegs_real="$(realpath -m "$root/opt/pegs")"
if [[ $source_real == "$(realpath -m "$root/opt/pegs/src")" ]]; then
    installed_copy=1
elif [[ $source_real/ == "$pegs_real"/* || $pegs_real/ == "$source_real"/* ]]; then
    echo "install.sh: $source_dir and /opt/pegs overlap: run the install.sh of a checkout elsewhere" \
        "(git clone ... ~/pegs), or /opt/pegs/src/deploy/install.sh; nothing was changed" >&2
    exit 2
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

# The program: the checkout, less what is not the program (git history, a development venv, game
# records, build output, caches), in /opt/pegs/src. A file step: carried out under --root too.
declare -a left_out=(./.git ./.venv ./data ./build ./test-artifacts './*.egg-info' '*/__pycache__'
    ./.pytest_cache ./.mypy_cache ./.ruff_cache ./.hypothesis)
declare -a kept_over=(data) # game records kept in the installed copy (a `pegs serve` run from it): an update keeps them
declare -a prune=(-false)
for pattern in "${left_out[@]}"; do
    prune+=(-o -path "$pattern")
done
program_files() { # program_files DIR: the program's files in DIR (./name), NUL-terminated, sorted
    (cd "$1" && find . -mindepth 1 \( "${prune[@]}" \) -prune -o -print0) | LC_ALL=C sort -z
}
fingerprint() { # fingerprint DIR: what two copies must agree on: names, types, modes, links, contents
    (cd "$1" && find . -mindepth 1 \( "${prune[@]}" \) -prune -o -printf '%p %y %m %l\n') | LC_ALL=C sort
    (cd "$1" && find . -mindepth 1 \( "${prune[@]}" \) -prune -o -type f -print0 | LC_ALL=C sort -z |
        xargs -0 -r sha256sum)
}
if ((installed_copy)); then
    echo "= /opt/pegs/src (install.sh runs from it: nothing to copy; to update the program," \
        "run install.sh from your checkout)"
else
    target="$(at /opt/pegs/src)"
    same=0
    if [[ -d $target ]]; then
        wanted_print="$(fingerprint "$source_dir")"
        target_print="$(fingerprint "$target")"
        [[ $wanted_print == "$target_print" ]] && same=1
    fi
    if ((same)); then
        echo "= /opt/pegs/src (unchanged: the same as $source_dir)"
    else
        echo "+ copy $source_dir -> /opt/pegs/src (all but ${left_out[*]}):" \
            "into /opt/pegs/src.new, then renamed into place"
        if ((write_files)); then
            staging="$(at /opt/pegs/src.new)" previous="$(at /opt/pegs/src.old)"
            rm -rf "$staging" "$previous" # left by a run that was stopped
            mkdir -p "$staging"
            if ! program_files "$source_dir" | tar -C "$source_dir" --null --no-recursion -T - -cf - |
                tar -C "$staging" --no-same-owner -xf -; then
                rm -rf "$staging" # a full disk: the half copy goes, the installed one stays as it was
                echo "install.sh: could not copy the program to /opt/pegs/src.new (is the disk full? df -h /opt):" \
                    "/opt/pegs/src is left as it was" >&2
                exit 1
            fi
            if [[ -e $target || -L $target ]]; then
                mv "$target" "$previous"
            fi
            mv "$staging" "$target"
            for kept in "${kept_over[@]}"; do # what was made in the installed copy, not copied into it
                if [[ -e $previous/$kept && ! -e $target/$kept ]]; then
                    mv "$previous/$kept" "$target/$kept"
                fi
            done
            rm -rf "$previous"
        fi
    fi
fi
if ((run_commands)) && [[ -x /opt/pegs/venv/bin/python ]]; then
    # A venv from before a system upgrade (Bookworm's 3.11, now Trixie's 3.13) is made anew.
    version='import sys; print(sys.version_info[:2])'
    [[ "$(/opt/pegs/venv/bin/python -c "$version" 2>&1)" == "$(python3 -c "$version")" ]] || venv_options+=(--clear)
fi
run python3 -m venv "${venv_options[@]}" /opt/pegs/venv
run "${pip_env[@]}" /opt/pegs/venv/bin/pip install --upgrade "/opt/pegs/src[pi]"
run chown -R pegs:pegs /var/lib/pegs

# `pegs` on the PATH: a link to the venv's. A file step: carried out under --root too.
link=/usr/local/bin/pegs
program=/opt/pegs/venv/bin/pegs
link_file="$(at "$link")"
if [[ -L $link_file && "$(readlink "$link_file")" == "$program" ]]; then
    echo "= $link -> $program (unchanged)"
elif [[ -e $link_file || -L $link_file ]]; then
    found="a file"
    [[ -d $link_file ]] && found="a directory"
    [[ -L $link_file ]] && found="a link to $(readlink "$link_file")"
    echo "# warning: $link is there already ($found) and is not install.sh's: left as it is, so" \
        "\`pegs\` may run another program. If it is an older pegs, remove it (sudo rm $link) and" \
        "run install.sh again; until then type $program" >&2
else
    echo "+ link $link -> $program"
    if ((write_files)); then
        mkdir -p "$(dirname "$link_file")"
        ln -s "$program" "$link_file"
    fi
fi

# -- files: config, udev rules, systemd unit -----------------------------------------------------

# [board] in a config: mode=get prints its players value, mode=layout its layout value (nothing when
# there is none); mode=set prints the config with its players value set to n, every other line as
# it was: the value replaced in place (its spacing and comment kept), or `players = n` added under
# [board], or a [board] table added at the end. The board may also be written as dotted keys
# (board.players = 4) or an inline table (board = { players = 4 }) before any [table]: set in place
# there too. Reads the file twice (awk ... FILE FILE); `checked_players` then reads the result as TOML.
# shellcheck disable=SC2016  # an awk program: its $ are awk's, never the shell's
board_awk='
    function trim(s) { gsub(/^[ \t\r]+|[ \t\r]+$/, "", s); return s }
    function section_of(line) { sub(/#.*/, "", line); line = trim(line); return trim(substr(line, 2, length(line) - 2)) }
    function set_value(line, key,    head, rest) {
        match(line, "^[ \t]*" key "[ \t]*=[ \t]*"); head = substr(line, 1, RLENGTH); rest = substr(line, RLENGTH + 1)
        match(rest, /^[^ \t#]*/); return head n substr(rest, RLENGTH + 1)
    }
    FNR == 1 { pass++; board = 0; top = 1 }
    /^[ \t]*\[/ { top = 0; board = section_of($0) == "board"; if (board) seen = 1 }
    top && /^[ \t]*board[ \t]*\./ { seen = 1; dotted = 1 }
    top && /^[ \t]*board[ \t]*=[ \t]*\{/ { seen = 1; inline = 1 }
    pass == 1 && board && /^[ \t]*players[ \t]*=/ { has = 1 }
    pass == 1 && top && /^[ \t]*board[ \t]*\.[ \t]*players[ \t]*=/ { has = 1 }
    pass == 1 && board && /^[ \t]*layout[ \t]*=/ { layout = $0 }
    pass == 1 { next }
    mode == "get" && board && /^[ \t]*players[ \t]*=/ {
        value = $0; sub(/^[ \t]*players[ \t]*=/, "", value); sub(/#.*/, "", value); print trim(value); exit
    }
    mode == "get" && top && /^[ \t]*board[ \t]*\.[ \t]*players[ \t]*=/ {
        value = $0; sub(/^[^=]*=/, "", value); sub(/#.*/, "", value); print trim(value); exit
    }
    mode == "get" && top && /^[ \t]*board[ \t]*=[ \t]*\{/ && match($0, /players[ \t]*=[ \t]*[0-9]+/) {
        value = substr($0, RSTART, RLENGTH); sub(/^[^=]*=/, "", value); print trim(value); exit
    }
    mode == "layout" { if (layout != "") { sub(/^[ \t]*layout[ \t]*=/, "", layout); sub(/#.*/, "", layout); print trim(layout) } exit }
    mode != "set" { next }
    board && /^[ \t]*players[ \t]*=/ { print set_value($0, "players"); next }
    top && /^[ \t]*board[ \t]*\.[ \t]*players[ \t]*=/ { print set_value($0, "board[ \t]*\\.[ \t]*players"); next }
    top && dotted && !has && /^[ \t]*board[ \t]*\./ { print "board.players = " n; has = 1 }
    top && /^[ \t]*board[ \t]*=[ \t]*\{/ {
        line = $0
        if (match(line, /players[ \t]*=[ \t]*[0-9]+/)) line = substr(line, 1, RSTART - 1) "players = " n substr(line, RSTART + RLENGTH)
        else if (line ~ /\{[ \t]*\}/) sub(/\{[ \t]*\}/, "{ players = " n " }", line)
        else sub(/\{/, "{ players = " n ",", line)
        print line; has = 1; next
    }
    { print }
    board && !has && /^[ \t]*\[/ { print "players = " n; has = 1 }
    END { if (mode == "set" && !seen) { print ""; print "[board]"; print "players = " n } }
'
board() { # board MODE FILE [N]
    awk -v mode="$1" -v n="${3:-}" "$board_awk" "$2" "$2"
}
checked_players() { # checked_players N: standard input, read as TOML, sets [board] players = N
    python3 -c 'import sys, tomllib
try:
    players = tomllib.loads(sys.stdin.read()).get("board", {}).get("players")
except (tomllib.TOMLDecodeError, AttributeError):
    players = None
sys.exit(0 if players == int(sys.argv[1]) else 1)' "$1"
}
# [leds] max_amps in a config: mode=get prints it, mode=set prints the config with it set to n (in
# place, its comment kept). Only a max_amps line under a [leds] table is read or changed.
# shellcheck disable=SC2016  # an awk program, as above
leds_awk='
    function trim(s) { gsub(/^[ \t\r]+|[ \t\r]+$/, "", s); return s }
    /^[ \t]*\[/ { line = $0; sub(/#.*/, "", line); line = trim(line); leds = trim(substr(line, 2, length(line) - 2)) == "leds" }
    leds && /^[ \t]*max_amps[ \t]*=/ {
        if (mode == "get") { value = $0; sub(/^[^=]*=/, "", value); sub(/#.*/, "", value); print trim(value); exit }
        match($0, /^[ \t]*max_amps[ \t]*=[ \t]*/); head = substr($0, 1, RLENGTH); rest = substr($0, RLENGTH + 1)
        match(rest, /^[^ \t#]*/); print head n substr(rest, RLENGTH + 1); next
    }
    mode == "set" { print }
'
leds_amps() { # leds_amps MODE FILE [N]  (FILE - for standard input)
    awk -v mode="$1" -v n="${3:-}" "$leds_awk" "$2"
}
# The LEDs' current cap per board size: referee/kit/power.py's max_amps (tests/test_power.py checks
# that these are its values): about 80 % of the guide's supply for the size, less the sensors.
max_amps_for() { # max_amps_for PLAYERS
    case "$1" in
        2 | 4) echo 5.0 ;;
        6) echo 7.0 ;;
        8) echo 6.5 ;;
        10) echo 9.5 ;;
    esac
}
written_amps=" 4.0 5.0 7.0 6.5 9.5 " # the values install.sh writes (4.0: the template's before issue 35)
with_size_amps() { # with_size_amps PLAYERS WAS: standard input, a config, printed with max_amps for
    # the size when WAS (its max_amps) is a value install.sh writes; a value of the builder's own is kept
    if [[ -n $2 && $written_amps == *" $2 "* ]]; then
        leds_amps set - "$(max_amps_for "$1")"
    else
        cat
    fi
}
size_amps_note() { # size_amps_note PLAYERS WAS: the line saying what happened to max_amps, if anything
    local amps
    amps="$(max_amps_for "$1")"
    if [[ -z $2 || $2 == "$amps" ]]; then
        return 0
    elif [[ $written_amps == *" $2 "* ]]; then
        echo "#   $config_path: [leds] max_amps = $2 -> max_amps = $amps, the guide's value for this size"
    else
        echo "# note: [leds] max_amps = $2 is kept (yours); the guide's supply for this size allows $amps" >&2
    fi
}
config_path=/etc/pegs/pegs.toml
config_file="$(at "$config_path")"
if [[ -e $config_file && -z $players ]]; then
    echo "= $config_path (kept: yours)"
elif [[ -e $config_file ]]; then
    was="$(board get "$config_file")"
    amps_was="$(leds_amps get "$config_file")"
    text="$(board set "$config_file" "$players" | with_size_amps "$players" "$amps_was"; echo x)"
    if ! printf '%s' "${text%x}" | checked_players "$players"; then
        echo "install.sh: $config_path: cannot set players = $players in it (it does not read as TOML, or" \
            "writes its board in a way this script does not edit): set players = $players under [board]" \
            "by hand, then run install.sh again. Nothing was changed." >&2
        exit 1
    fi
    if put_text "$config_path" 0644 "${text%x}"; then
        echo "#   $config_path: [board] players = ${was:-(none)} -> players = $players; every other line kept"
        size_amps_note "$players" "$amps_was"
        kept_layout="$(board layout "$config_file")"
        if [[ -n $kept_layout ]]; then
            echo "# note: [board] layout = $kept_layout is kept: it must be a layout of this board size" \
                "(pegs refuses one of another size); make it anew with pegs calibrate" >&2
        fi
    fi
elif [[ -n $players ]]; then
    amps_was="$(leds_amps get "$here/pegs.toml")"
    text="$(board set "$here/pegs.toml" "$players" | with_size_amps "$players" "$amps_was"; echo x)"
    put_text "$config_path" 0644 "${text%x}" || true
else
    put_file "$here/pegs.toml" "$config_path" 0644
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
# The board size in force, and how to change it.
if [[ -n $players ]]; then
    board_players="$players"
elif [[ -f $config_file ]]; then
    board_players="$(board get "$config_file")"
else
    board_players="$(board get "$here/pegs.toml")" # --dry-run: the config it would write
fi
case "$board_players" in
    2 | 4) echo "board: players = $board_players in $config_path: a board of 4 sides" ;;
    6 | 8 | 10) echo "board: players = $board_players in $config_path: a board of $board_players sides" ;;
    "") echo "board: no players line in $config_path: 4 players, a board of 4 sides" ;;
    *) echo "board: players = $board_players in $config_path is not 2, 4, 6, 8 or 10: pegs refuses it" ;;
esac
echo "  to change it: sudo /opt/pegs/src/deploy/install.sh --players N  (N = 2, 4, 6, 8 or 10;" \
    "2 and 4 play on a 4-sided board), or edit that line and sudo systemctl restart pegs"
echo "installed: the board's page is at http://$(hostname).local:8080/ (journalctl -u pegs -f for the logs)"
if ((reboot)); then
    echo "REBOOT NEEDED: $boot/config.txt and cmdline.txt (SPI, spidev.bufsiz, the core clock) take effect" \
        "at the next boot; pegs starts then. Run: sudo reboot"
fi
