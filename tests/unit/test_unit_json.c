/* SPDX-License-Identifier: MIT */
/*
 * The one JSON string writer (src/lib/json.h): whatever bytes a name holds
 * (quotes, backslashes, control bytes, UTF-8, bytes that are not UTF-8),
 * what comes out is one valid JSON string that carries it.
 */
#include <stdio.h>
#include <string.h>
#include "../tap.h"
#include "../../src/lib/json.h"

static const char *escaped(const char *s)
{
	static char out[256];

	dmamap__json_escape(out, sizeof(out), s);
	return out;
}

TEST(unit_json_escapes_quotes_backslashes_and_control_bytes)
{
	CHECK(!strcmp(escaped("we\"ird\\name"), "we\\\"ird\\\\name"));
	CHECK(!strcmp(escaped("a\nb\tc"), "a\\nb\\tc"));
	CHECK(!strcmp(escaped("\x01\x1f"), "\\u0001\\u001f"));
	CHECK(!strcmp(escaped("plain /soc/dma@1000 ' ok"), "plain /soc/dma@1000 ' ok"));
}

TEST(unit_json_passes_utf8_and_replaces_what_is_not)
{
	/* é, €, 😀 pass as they are. */
	CHECK(!strcmp(escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
		      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
	/* A lone continuation byte, a cut sequence, an overlong '/', a surrogate: U+FFFD each byte. */
	CHECK(!strcmp(escaped("a\x80z"), "a\xef\xbf\xbdz"));
	CHECK(!strcmp(escaped("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd"));
	CHECK(!strcmp(escaped("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd"));
	CHECK(!strcmp(escaped("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"));
	CHECK(!strcmp(escaped("\xf4\x90\x80\x80"),
		      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"));
}

TEST(unit_json_cut_short_never_splits_an_escape)
{
	char out[8];
	size_t need = dmamap__json_escape(out, sizeof(out), "abcd\"ef");

	CHECK_EQ(need, (size_t)8);
	/* "abcd\"" takes 6 bytes and "e" a 7th: the NUL ends it there. */
	CHECK(!strcmp(out, "abcd\\\"e"));
	need = dmamap__json_escape(out, 6, "abcd\x01");
	CHECK_EQ(need, (size_t)10);
	CHECK(!strcmp(out, "abcd"));
	CHECK_EQ(dmamap__json_escape(NULL, 0, "xyz"), (size_t)3);
}

TEST(unit_json_write_quotes_and_writes_null)
{
	char buf[128] = { 0 };
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	REQUIRE(f);
	dmamap__json_write(f, "./we\"ird.dts");
	fputc(',', f);
	dmamap__json_write(f, NULL);
	fclose(f);
	CHECK(!strcmp(buf, "\"./we\\\"ird.dts\",null"));
}
