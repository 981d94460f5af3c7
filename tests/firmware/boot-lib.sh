# SPDX-License-Identifier: GPL-2.0-or-later
#
# What firmware-verdicts.sh, compare-verify-file.sh and fix-proofs.sh
# share (sourced after tests/kernel/lib.sh): the machines, the paths, one
# boot of a kernel on a variable store, and a machine's root laid out for
# verify-file --machine --sysroot.

# name and fw-vars.py options of each machine
MACHINES=(
	"sb-on:"                          # Secure Boot on, MOK trusted (shim's default)
	"sb-on-untrusted:--untrust-mok"   # MokListTrusted set: no MokListTrustedRT
	"sb-on-ignoredb:--ignore-db"      # MokDBState: shim publishes MokIgnoreDB
	"mok-sb-off:--mok-sb-off"         # MokSBState: shim and kernel see SB off
	"fw-sb-off:--sb-off"              # SecureBootEnable off in the firmware
)

# The kernels (build-efi-kernel.sh's flavours), in build order: each
# switch recompiles few objects (README).  "ubuntu" is not among them by
# default: on real firmware it showed suse's verdicts with debian's
# lockdown level, nothing of its own (README); -k ubuntu boots it.
FLAVOURS=(debian mainline arch suse fedora debian-ima)

# The machines each flavour boots on: every machine for debian and
# mainline; for a vendor flavour only those where its rows can differ
# from the kernels already booted (README, "Flavours").
declare -A FLAVOUR_MACHINES=(
	[debian]="sb-on sb-on-untrusted sb-on-ignoredb mok-sb-off fw-sb-off"
	[mainline]="sb-on sb-on-untrusted sb-on-ignoredb mok-sb-off fw-sb-off"
	[arch]="sb-on"
	[suse]="sb-on"
	[ubuntu]="sb-on"
	[fedora]="sb-on"
	[debian-ima]="sb-on fw-sb-off"
)
fw_boots_on() { # KERNEL MACHINE
	[[ " ${FLAVOUR_MACHINES[$1]:-} " == *" $2 "* ]]
}

# The case modules of kernel K's release (firmware-verdicts.sh make_cases).
fw_cases() { # KERNEL
	echo "$FW/cases/$(cat "$FW/release-$1")"
}

# The stage's paths and tools (the 7.3 tree of the kernel harness).
fw_globals() {
	kh_paths 7.3
	FW=$KH_CACHE/firmware
	OUT=$KH_TOP/build/firmware-verdicts
	KEYS=$FW_DIR/keys
	KKEYS=$KH_DIR/keys
	TIMEOUT=${MODSIGN_QEMU_TIMEOUT:-600}
	OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd
	OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.ms.fd
	local f
	for f in "$OVMF_CODE" "$OVMF_VARS"; do
		[ -f "$f" ] || die "$f missing (scripts/install-deps.sh firmware)"
	done
	command -v qemu-system-x86_64 >/dev/null ||
		die "qemu-system-x86_64 missing (scripts/install-deps.sh firmware)"
	mkdir -p "$FW" "$OUT"
	VFV=$("$FW_DIR/fetch-virt-firmware.sh")
}

# Boot kernel K's ESP ($FW/esp-K.img, made by firmware-verdicts.sh) on a
# variable store made with fw-vars.py OPTS; the machine's results go to
# $OUT/K/NAME.*: .tsv (case, finit result, taint), .root/ (its EFI
# variables as files), .proc-keys, .vf-inside.json and .err, .lockdown.
fw_boot() { # KERNEL NAME OPTS
	local k=$1 m=$2 opts=$3 dir=$OUT/$1 log vars t rc=0
	mkdir -p "$dir"
	log=$dir/$m.log
	vars=$dir/$m.vars.fd
	# shellcheck disable=SC2086
	"$FW_DIR/fw-vars.py" --vfv "$VFV" --base "$OVMF_VARS" --out "$vars" \
		--keys "$KEYS" $opts || die "$m: could not make the variable store"
	t=$(now)
	timeout -k 10 "$TIMEOUT" qemu-system-x86_64 -nodefaults -display none \
		-machine q35,smm=on -cpu max -m 512M -smp 1 -no-reboot \
		-global driver=cfi.pflash01,property=secure,value=on \
		-global ICH9-LPC.disable_s3=1 \
		-drive if=pflash,format=raw,unit=0,readonly=on,file="$OVMF_CODE" \
		-drive if=pflash,format=raw,unit=1,file="$vars" \
		-drive if=none,id=esp,format=raw,snapshot=on,file="$FW/esp-$k.img" \
		-device ide-hd,drive=esp,bus=ide.0 \
		-serial "file:$log" </dev/null >"$dir/$m.qemu.out" 2>&1 || rc=$?
	note "$k/$m: boot took $(elapsed "$t")s"
	[ $rc -ne 124 ] || { note "$k/$m: QEMU timed out after ${TIMEOUT}s (serial log: $log)"; return 1; }
	[ $rc -eq 0 ] || { note "$k/$m: QEMU failed (exit $rc): $(tail -n 3 "$dir/$m.qemu.out")"; return 1; }
	tr -d '\r' <"$log" | grep -a '^MODSIGN-ERROR' >&2 || true
	if ! tr -d '\r' <"$log" | grep -aq '^MODSIGN-DONE'; then
		note "$k/$m: the machine did not reach /init's end; last lines of $log:"
		tr -d '\r' <"$log" | tail -n 15 >&2
		return 1
	fi
	# kernel, machine, case, finit result, taint flags of the loaded module
	tr -d '\r' <"$log" | awk -F'\t' -v k="$k" -v m="$m" \
		'$1 == "MODSIGN-CASE" { print k "\t" m "\t" $2 "\t" $4 "\t" $5 }' >"$dir/$m.tsv"
	# the machine's variables as files (efivarfs: 4 bytes attributes + data)
	rm -rf "$dir/$m.root"
	tr -d '\r' <"$log" | awk -F'\t' '$1 == "MODSIGN-FILE" { print $2 "\t" $3 }' |
		while IFS=$'\t' read -r path hex; do
			mkdir -p "$dir/$m.root${path%/*}"
			printf '%s' "$hex" | xxd -r -p >"$dir/$m.root$path"
		done
	tr -d '\r' <"$log" | awk -F'\t' '$1 == "MODSIGN-PROCKEY" { print $2 }' >"$dir/$m.proc-keys"
	tr -d '\r' <"$log" | awk -F'\t' '$1 == "MODSIGN-VF" { print $2 }' >"$dir/$m.vf-inside.json"
	tr -d '\r' <"$log" | awk -F'\t' '$1 == "MODSIGN-VF-ERR" { print $2 }' >"$dir/$m.vf-inside.err"
	tr -d '\r' <"$log" | awk -F'\t' '$1 == "MODSIGN-STATE" && $2 == "lockdown" { print $3 }' >"$dir/$m.lockdown"
}

# Wait until fewer than MAX of this shell's background jobs run.
fw_slot() { # MAX
	while [ "$(jobs -rp | wc -l)" -ge "$1" ]; do
		wait -n || true
	done
}

# Boot many: each line of FILE is KERNEL<TAB>NAME<TAB>OPTS, booted as
# fw_boot does, up to MAX at once (default MODSIGN_FW_BOOTS, else the CPU
# count).  A boot is one QEMU vCPU under TCG, one core: one at a time left
# the second core idle for much of the stage.  Each boot writes only its
# own $OUT/K/NAME.* files; $OUT/K/NAME.status says whether it reached
# /init's end (0) or not (1), read by the caller in FILE's order.
fw_boot_many() { # FILE [MAX]
	local max=${2:-${MODSIGN_FW_BOOTS:-$(nproc)}} k name opts
	while IFS=$'\t' read -r k name opts; do
		fw_slot "$max"
		mkdir -p "$OUT/$k"
		rm -f "$OUT/$k/$name.status"
		(
			rc=0
			fw_boot "$k" "$name" "$opts" || rc=1
			echo $rc >"$OUT/$k/$name.status"
		) </dev/null &
	done <"$1"
	wait
}

# Whether K/NAME's boot (fw_boot_many) reached /init's end.
fw_booted() { # KERNEL NAME
	[ "$(cat "$OUT/$1/$2.status" 2>/dev/null)" = 0 ]
}

# A booted machine's root as verify-file --machine --sysroot reads it,
# at DIR (made anew):
#   boot/vmlinuz-R, boot/config-R    the kernel image and its .config
#   sys/firmware/efi/efivars/...     the machine's variables as /init read
#                                    them from efivarfs (4 bytes attributes
#                                    + data), db, dbx, SecureBoot,
#                                    MokListRT, ... (fw-init.c wanted_var)
#   sys/firmware/efi/mok-variables/  shim's MOK config table as the kernel
#                                    exports it
# (no lockdown or sig_enforce file: those the machine must predict).
fw_sysroot() { # KERNEL NAME DIR
	local k=$1 m=$2 root=$3 rel
	rel=$(cat "$FW/release-$k")
	rm -rf "$root"
	mkdir -p "$root/boot" "$root/sys/firmware/efi"
	cp "$FW/bzImage-$k" "$root/boot/vmlinuz-$rel"
	cp "$FW/config-$k" "$root/boot/config-$rel"
	if [ -d "$OUT/$k/$m.root/sys/firmware/efi" ]; then
		cp -r "$OUT/$k/$m.root/sys/firmware/efi/." "$root/sys/firmware/efi/"
	fi
}
