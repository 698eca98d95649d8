/* SPDX-License-Identifier: MIT */
/* A strict, minimal JSON validator, for the reports' JSON form. */
#include "../helpers.h"

/* ---- a strict, minimal JSON validator ------------------------------------- */

static const char *js_value(const char *s, int depth);

static const char *js_ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

static const char *js_string(const char *s)
{
	if (*s++ != '"')
		return NULL;
	while (*s != '"') {
		if (!*s || (unsigned char)*s < 0x20)
			return NULL;
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
						return NULL;
				s += 4;
			} else if (!*s || !strchr("\"\\/bfnrt", *s)) {
				return NULL;
			}
		}
		s++;
	}
	return s + 1;
}

static const char *js_digits(const char *s)
{
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

static const char *js_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (!(s = js_digits(s)))
		return NULL;
	if (*s == '.' && !(s = js_digits(s + 1)))
		return NULL;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(s = js_digits(s)))
			return NULL;
	}
	return s;
}

static const char *js_value(const char *s, int depth)
{
	char close;

	s = js_ws(s);
	if (depth > 16)
		return NULL;
	if (*s == '"')
		return js_string(s);
	if (!strncmp(s, "true", 4))
		return s + 4;
	if (!strncmp(s, "false", 5))
		return s + 5;
	if (!strncmp(s, "null", 4))
		return s + 4;
	if (*s != '{' && *s != '[')
		return js_number(s);
	close = *s == '{' ? '}' : ']';
	s = js_ws(s + 1);
	if (*s == close)
		return s + 1;
	for (;;) {
		if (close == '}') {
			if (!(s = js_string(js_ws(s))))
				return NULL;
			s = js_ws(s);
			if (*s++ != ':')
				return NULL;
		}
		if (!(s = js_value(s, depth + 1)))
			return NULL;
		s = js_ws(s);
		if (*s == close)
			return s + 1;
		if (*s++ != ',')
			return NULL;
	}
}

bool json_valid_object(const char *s)
{
	s = js_ws(s);
	if (*s != '{')
		return false;
	s = js_value(s, 0);
	return s && !*js_ws(s);
}
