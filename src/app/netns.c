// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* netns.c: resolving --netns and entering the namespace with setns(2). */
#include "netns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *netns_path(const char *spec, char *path, size_t len)
{
	int n;

	if (!*spec || !strcmp(spec, ".") || !strcmp(spec, ".."))
		return NULL;
	if (strspn(spec, "0123456789") == strlen(spec))
		n = snprintf(path, len, "/proc/%s/ns/net", spec);
	else if (strchr(spec, '/'))
		n = snprintf(path, len, "%s", spec);
	else
		n = snprintf(path, len, "/run/netns/%s", spec);
	return n > 0 && (size_t)n < len ? path : NULL;
}

int netns_enter(const char *spec, char *err, size_t errlen)
{
	char path[4096];
	int fd, ret = 0;

	if (!netns_path(spec, path, sizeof(path))) {
		snprintf(err, errlen, "--netns '%s' names no namespace", spec);
		return -EINVAL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "--netns %s: no such network namespace (%s: %s)", spec, path,
			 strerror(errno));
		return ret;
	}
	if (setns(fd, CLONE_NEWNET)) {
		ret = -errno;
		if (errno == EINVAL)
			snprintf(err, errlen, "--netns %s: %s is not a network namespace", spec,
				 path);
		else if (errno == EPERM)
			snprintf(err, errlen,
				 "--netns %s: entering a network namespace takes CAP_SYS_ADMIN",
				 spec);
		else
			snprintf(err, errlen, "--netns %s: cannot enter %s: %s", spec, path,
				 strerror(errno));
	}
	close(fd);
	return ret;
}
