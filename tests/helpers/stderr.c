/* SPDX-License-Identifier: MIT */
/* stderr into a file for a while: what a call says there, for a test to read. */
#include <stdio.h>
#include <unistd.h>
#include "../helpers.h"

static FILE *err_file;
static int saved_stderr = -1;

void stderr_capture(void)
{
	fflush(stderr);
	err_file = tmpfile();
	saved_stderr = dup(2);
	if (err_file && saved_stderr >= 0)
		dup2(fileno(err_file), 2);
}

const char *stderr_text(void)
{
	static char text[4096];
	size_t n = 0;

	fflush(stderr);
	if (saved_stderr >= 0) {
		dup2(saved_stderr, 2);
		close(saved_stderr);
		saved_stderr = -1;
	}
	if (err_file) {
		rewind(err_file);
		n = fread(text, 1, sizeof(text) - 1, err_file);
		fclose(err_file);
		err_file = NULL;
	}
	text[n] = '\0';
	return text;
}
