// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_outcome.c: the exit statuses, from setup errors and from a capture file's end,
 * and an error said once on stderr and, in JSON mode, as one {"error"} line on stdout. */
#include <errno.h>
#include <fcntl.h>

#include "outcome.h"
#include "test.h"

static void test_statuses(void)
{
	ASSERT_EQ(outcome_of_error(-ENODEV), 2);	  /* no such interface */
	ASSERT_EQ(outcome_of_error(-EPROTONOSUPPORT), 2); /* a link type flowtop does not know */
	ASSERT_EQ(outcome_of_error(-EBUSY), 2);		  /* two indexes in one place */
	ASSERT_EQ(outcome_of_error(-EOPNOTSUPP), 2);	  /* a kernel too old */
	ASSERT_EQ(outcome_of_error(-ENOMEM), 1);
	ASSERT_EQ(outcome_of_error(0), 1); /* a failure that set no errno is still one */
	ASSERT_EQ(outcome_of_replay(0), 0);
	ASSERT_EQ(outcome_of_replay(-1), 2); /* the file broke: the user's input */
	ASSERT_EQ(outcome_of_replay(-ENOMEM), 1);
	ASSERT_EQ(OUTCOME_IFACE_GONE, 3);
}

/* what fn wrote to stdout and to stderr (each redirected to a file meanwhile) */
static void captured(void (*fn)(void), char *out, char *err, size_t len)
{
	char path[2][32] = { "/tmp/test_outcome-XXXXXX", "/tmp/test_outcome-XXXXXX" };
	char *buf[2] = { out, err };
	int fd[2], saved[2], i;
	ssize_t n;

	fflush(NULL);
	for (i = 0; i < 2; i++) {
		fd[i] = mkstemp(path[i]);
		saved[i] = dup(STDOUT_FILENO + i);
		dup2(fd[i], STDOUT_FILENO + i);
	}
	fn();
	fflush(NULL);
	for (i = 0; i < 2; i++) {
		dup2(saved[i], STDOUT_FILENO + i);
		close(saved[i]);
		n = pread(fd[i], buf[i], len - 1, 0);
		buf[i][n > 0 ? n : 0] = '\0';
		close(fd[i]);
		unlink(path[i]);
	}
}

static void say_json(void)
{
	outcome_say(true, "no interface '%s'", "e\"th9");
}

static void say_plain(void)
{
	outcome_say(false, "cannot read the counters: %s", "Bad address");
}

static void test_said(void)
{
	char out[256], err[256];

	captured(say_json, out, err, sizeof(out));
	ASSERT_STREQ(out, "{\"error\":\"no interface 'e\\\"th9'\"}\n");
	ASSERT_STREQ(err, "flowtop: no interface 'e\"th9'\n");
	captured(say_plain, out, err, sizeof(out));
	ASSERT_STREQ(out, "");
	ASSERT_STREQ(err, "flowtop: cannot read the counters: Bad address\n");
}

int main(void)
{
	RUN_TEST(test_statuses);
	RUN_TEST(test_said);
	return test_summary("test_outcome");
}
