#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# payload-path.sh LINE
#
# Print the path of the unsigned modsign_payload.ko built against the LINE
# kernel tree, building it first if needed.  Case generators sign this file:
# its vermagic matches the kernel judge-cases.sh boots.  The kernel must have
# been built once (build-kernel.sh or judge-cases.sh).
set -euo pipefail
PROG=payload-path.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || {
	echo "usage: $PROG LINE   (LINE: ${KH_LINES// / or })" >&2
	exit 2
}
kh_paths "$1"
kh_ext_module "$KH_DIR/payload" modsign_payload
