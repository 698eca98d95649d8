/* SPDX-License-Identifier: MIT */
/*
 * The one JSON string writer: every JSON the library and the CLI print
 * quotes its strings here. Names come from device trees, file names and
 * drivers, so anything may be in them.
 */
#ifndef DMAMAP_LIB_JSON_H
#define DMAMAP_LIB_JSON_H

#include <stddef.h>
#include <stdio.h>

/**
 * dmamap__json_escape() - the body of a JSON string (no quotes) for @s
 * @out: buffer, always NUL-terminated when @cap is not 0
 * @cap: its size
 * @s: bytes to carry
 *
 * Quotes and backslashes are escaped, control bytes written as \\n, \\t or
 * \\u00XX, valid UTF-8 passes as it is and every byte of an invalid
 * sequence becomes U+FFFD, so the result is always valid JSON. A result
 * longer than @cap is cut before the escape that does not fit.
 *
 * Return: the length the whole result needs (without the NUL).
 */
size_t dmamap__json_escape(char *out, size_t cap, const char *s);

/**
 * dmamap__json_write() - @s as a quoted JSON string on @f
 * @f: stream
 * @s: bytes to carry, as for dmamap__json_escape(); NULL writes null
 */
void dmamap__json_write(FILE *f, const char *s);

#endif
