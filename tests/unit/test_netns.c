// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_netns.c: what --netns names: a PID, a path, a name under /run/netns; and the
 * errors entering one gives without privileges or with a file that is none. */
#include "test.h"

#include <errno.h>
#include <unistd.h>

#include "netns.h"

static void test_paths(void)
{
	char p[64];

	ASSERT_STREQ(netns_path("1234", p, sizeof(p)), "/proc/1234/ns/net");
	ASSERT_STREQ(netns_path("blue", p, sizeof(p)), "/run/netns/blue");
	ASSERT_STREQ(netns_path("/var/run/netns/x", p, sizeof(p)), "/var/run/netns/x");
	ASSERT_STREQ(netns_path("./ns", p, sizeof(p)), "./ns");
	ASSERT_TRUE(netns_path("", p, sizeof(p)) == NULL);
	ASSERT_TRUE(netns_path("..", p, sizeof(p)) == NULL);
	ASSERT_TRUE(netns_path("a-very-long-namespace-name-that-does-not-fit-in-64-bytes-at-all", p,
			       sizeof(p)) == NULL);
}

static void test_errors(void)
{
	char err[256];

	ASSERT_EQ(netns_enter("flowtop-no-such-namespace", err, sizeof(err)), -ENOENT);
	ASSERT_STREQ(err, "--netns flowtop-no-such-namespace: no such network namespace "
			  "(/run/netns/flowtop-no-such-namespace: No such file or directory)");
	ASSERT_EQ(netns_enter("999999999", err, sizeof(err)), -ENOENT); /* no such PID */
	if (geteuid() == 0) {
		ASSERT_EQ(netns_enter("/dev/null", err, sizeof(err)), -EINVAL);
		ASSERT_STREQ(err, "--netns /dev/null: /dev/null is not a network namespace");
	} else {
		ASSERT_EQ(netns_enter("/proc/self/ns/net", err, sizeof(err)), -EPERM);
		ASSERT_STREQ(err, "--netns /proc/self/ns/net: entering a network namespace takes "
				  "CAP_SYS_ADMIN");
	}
}

int main(void)
{
	RUN_TEST(test_paths);
	RUN_TEST(test_errors);
	return test_summary("test_netns");
}
