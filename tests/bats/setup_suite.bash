# SPDX-License-Identifier: GPL-2.0-or-later
# Run once by bats before the first test of tests/bats (bats reads this
# file from the directory of the tests it runs): what helpers.bash would
# otherwise ask for in every test's own process.

setup_suite() {
	MODSIGN_TEST_OPENSSL_VERSION=$(openssl version | cut -d' ' -f2)
	export MODSIGN_TEST_OPENSSL_VERSION
}
