// SPDX-License-Identifier: MIT
#include <string.h>
#include "json.h"

/* Bytes of the valid UTF-8 sequence at @s (1-4), or 0 if it is not one. */
static size_t utf8_length(const unsigned char *s)
{
	size_t n;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not text. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* The escape for one piece of @s: written to @piece, its source length returned in *@used. */
static size_t next_piece(const unsigned char *s, char piece[8], size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = utf8_length(s);

	*used = n ? n : 1;
	if (!n) {
		memcpy(piece, "\xef\xbf\xbd", 3);	/* U+FFFD */
		return 3;
	}
	if (n > 1) {
		memcpy(piece, s, n);
		return n;
	}
	switch (s[0]) {
	case '"': case '\\':
		piece[0] = '\\', piece[1] = (char)s[0];
		return 2;
	case '\n':
		memcpy(piece, "\\n", 2);
		return 2;
	case '\t':
		memcpy(piece, "\\t", 2);
		return 2;
	}
	if (s[0] < 0x20) {
		memcpy(piece, "\\u00", 4);
		piece[4] = hex[s[0] >> 4], piece[5] = hex[s[0] & 15];
		return 6;
	}
	piece[0] = (char)s[0];
	return 1;
}

size_t dmamap__json_escape(char *out, size_t cap, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t need = 0, used;
	int full = 0;

	while (*p) {
		char piece[8];
		size_t n = next_piece(p, piece, &used);

		if (!full && need + n < cap)
			memcpy(out + need, piece, n);
		else if (!full) {
			full = 1;
			if (cap)
				out[need] = 0;
		}
		need += n;
		p += used;
	}
	if (!full && cap)
		out[need] = 0;
	return need;
}

void dmamap__json_write(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*p) {
		char piece[8];
		size_t n = next_piece(p, piece, &used);

		fwrite(piece, 1, n, f);
		p += used;
	}
	fputc('"', f);
}
