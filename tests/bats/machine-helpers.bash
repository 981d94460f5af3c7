# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the --machine suites: a fake machine root made by
# tests/fixtures/make-machine.sh, and the module every suite signs.

load helpers

MM="$TOP/tests/fixtures/make-machine.sh"

# The per-test start of every --machine suite: the scratch directory, the
# commands make-machine.sh and the assertions need, and m.ko, the module
# the suite signs with its keys.
machine_setup() {
	W="$BATS_TEST_TMPDIR"
	cd "$W" || return 1
	require_cmd cc gcc
	require_cmd jq jq
	make_module "$W/m.ko" 4000
}

# A fresh machine root at $W/root for release $REL; each argument is a
# part=value of make-machine.sh.
machine() { # part=value...
	rm -rf "$W/root"
	sh "$MM" "$W/root" "$REL" "$@"
}
