// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* snapshot.c: temporary file, write, fsync, rename. */
#include "snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#define TMP_TRIES 16

/* "dir/.name.<pid>.<n>.tmp": beside the target, so rename() stays on one file system. */
static int tmp_name(const char *path, unsigned n, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	int w = snprintf(buf, len, "%.*s.%s.%ld.%u.tmp", dirlen, path, path + dirlen,
			 (long)getpid(), n);

	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

int snapshot_write(const char *path, const struct report *r, char *err, size_t errlen)
{
	static unsigned counter;
	char tmp[4096];
	FILE *f = NULL;
	int fd = -1, ret, i;

	for (i = 0; i < TMP_TRIES && fd < 0; i++) {
		ret = tmp_name(path, counter++, tmp, sizeof(tmp));
		if (ret)
			goto out_err;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST) {
			ret = -errno;
			goto out_err;
		}
	}
	if (fd < 0) {
		ret = -EEXIST;
		goto out_err;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto out_unlink;
	}
	ret = report_write(f, r, report_format_for(path));
	if (!ret && fflush(f))
		ret = -errno;
	if (!ret && fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		goto out_unlink;
	if (rename(tmp, path)) {
		ret = -errno;
		goto out_unlink;
	}
	return 0;

out_unlink:
	unlink(tmp);
out_err:
	snprintf(err, errlen, "cannot write snapshot '%s': %s", path, strerror(-ret));
	return ret;
}

int snapshot_check(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct stat st;
	int ret = 0;

	if (!slash)
		strcpy(dir, ".");
	else if (slash == path)
		strcpy(dir, "/");
	else if ((size_t)(slash - path) >= sizeof(dir))
		ret = -ENAMETOOLONG;
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (!ret && slash && slash[1] == '\0') /* "dir/" names no file */
		ret = -EISDIR;
	if (!ret && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		ret = -EISDIR;
	if (!ret && access(dir, W_OK | X_OK))
		ret = -errno;
	if (ret)
		snprintf(err, errlen, "cannot write snapshot '%s': %s", path, strerror(-ret));
	return ret;
}

void snapshot_default_name(const char *iface, char *buf, size_t len)
{
	time_t t = time(NULL);
	char when[32];
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "flowtop-%s-%s.txt", iface, when);
}
