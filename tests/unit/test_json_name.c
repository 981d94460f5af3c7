// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * base/json_name.*: a file name in JSON.  A Linux name is any bytes but
 * '/' and NUL; JSON text is UTF-8 (RFC 8259).  Valid UTF-8 (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF) goes as it
 * is; otherwise every byte outside a valid sequence becomes U+FFFD and
 * KEY_bytes carries the exact name in lower-case hex.  The expected JSON
 * is written out here, byte for byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/json_name.h"

/* The tools' flags (report/signer_facts.h, RP_SIGNER_FACTS_JSON_FLAGS). */
#define FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* {"file": name} as the tools print it. */
static void expect_json(const char *name, const char *want)
{
	json_object *o = json_object_new_object();

	assert_non_null(o);
	json_name_add(o, "file", name);
	assert_string_equal(json_object_to_json_string_ext(o, FLAGS), want);
	json_object_put(o);
}

#define FFFD "\xef\xbf\xbd"

static void valid_utf8_goes_as_it_is(void **state)
{
	(void)state;
	expect_json("m.ko", "{\"file\":\"m.ko\"}");
	expect_json("/lib/modules/caf\xc3\xa9.ko",
		    "{\"file\":\"/lib/modules/caf\xc3\xa9.ko\"}");
	/* three- and four-byte sequences, and the last code point */
	expect_json("\xe2\x82\xac\xf0\x9f\x94\x91", "{\"file\":\"\xe2\x82\xac\xf0\x9f\x94\x91\"}");
	expect_json("\xf4\x8f\xbf\xbf", "{\"file\":\"\xf4\x8f\xbf\xbf\"}");
	expect_json("", "{\"file\":\"\"}");
}

/* Control bytes are valid UTF-8: escaped by JSON, not replaced. */
static void control_bytes_are_escaped(void **state)
{
	(void)state;
	expect_json("a\nb\tc\x01\x1f\"\\.ko",
		    "{\"file\":\"a\\nb\\tc\\u0001\\u001f\\\"\\\\.ko\"}");
}

static void null_name_is_null(void **state)
{
	(void)state;
	expect_json(NULL, "{\"file\":null}");
}

/* Latin-1 "café": one bad byte, and the exact bytes beside it. */
static void latin1_byte_is_replaced_and_kept_in_hex(void **state)
{
	(void)state;
	expect_json("caf\xe9.ko",
		    "{\"file\":\"caf" FFFD ".ko\",\"file_bytes\":\"636166e92e6b6f\"}");
}

/* Each byte of what is no valid sequence is one U+FFFD. */
static void invalid_sequences_byte_by_byte(void **state)
{
	(void)state;
	/* overlong '/' (C0 AF): a name must not smuggle a slash */
	expect_json("\xc0\xaf", "{\"file\":\"" FFFD FFFD "\",\"file_bytes\":\"c0af\"}");
	/* overlong three-byte NUL */
	expect_json("\xe0\x80\x80",
		    "{\"file\":\"" FFFD FFFD FFFD "\",\"file_bytes\":\"e08080\"}");
	/* a UTF-16 surrogate, U+D800 */
	expect_json("\xed\xa0\x80",
		    "{\"file\":\"" FFFD FFFD FFFD "\",\"file_bytes\":\"eda080\"}");
	/* above U+10FFFF */
	expect_json("\xf4\x90\x80\x80",
		    "{\"file\":\"" FFFD FFFD FFFD FFFD "\",\"file_bytes\":\"f4908080\"}");
	/* a lone continuation byte, and 0xFF */
	expect_json("a\x80z\xff",
		    "{\"file\":\"a" FFFD "z" FFFD "\",\"file_bytes\":\"61807aff\"}");
	/* a sequence cut short by the end of the name */
	expect_json("x\xe2\x82",
		    "{\"file\":\"x" FFFD FFFD "\",\"file_bytes\":\"78e282\"}");
	/* a valid sequence after a bad byte survives */
	expect_json("\xc3\xc3\xa9",
		    "{\"file\":\"" FFFD "\xc3\xa9\",\"file_bytes\":\"c3c3a9\"}");
}

/* Whatever the bytes, the output parses as JSON and KEY_bytes gives
 * back the exact name. */
static void every_byte_round_trips(void **state)
{
	char name[256], hex[2 * 255 + 1];
	json_object *o, *back, *b;
	const char *text;

	(void)state;
	for (int i = 0; i < 255; i++)
		name[i] = (char)(255 - i);	/* 0xff down to 0x01 */
	name[255] = '\0';
	for (int i = 0; i < 255; i++)
		snprintf(hex + 2 * i, 3, "%02x", 255 - i);
	o = json_object_new_object();
	json_name_add(o, "path", name);
	text = json_object_to_json_string_ext(o, FLAGS);
	back = json_tokener_parse(text);
	assert_non_null(back);
	assert_true(json_object_object_get_ex(back, "path_bytes", &b));
	assert_string_equal(json_object_get_string(b), hex);
	assert_true(json_object_object_get_ex(back, "path", &b));
	json_object_put(back);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_utf8_goes_as_it_is),
		cmocka_unit_test(control_bytes_are_escaped),
		cmocka_unit_test(null_name_is_null),
		cmocka_unit_test(latin1_byte_is_replaced_and_kept_in_hex),
		cmocka_unit_test(invalid_sequences_byte_by_byte),
		cmocka_unit_test(every_byte_round_trips),
	};

	return cmocka_run_group_tests_name("base/json_name", tests, NULL, NULL);
}
