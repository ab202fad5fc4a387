// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* snapshot.c: a temporary file of an unpredictable name, write, fsync, rename, fsync
 * of the directory. */
#include "snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>

#define TMP_TRIES 16

/* "dir/.name.<64 random bits>.tmp": beside the target, so rename() stays on one file
 * system; unpredictable, so nobody who can write the directory can plant the names. */
static int tmp_name(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0, w;
	uint64_t r;

	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		return errno ? -errno : -EIO;
	w = snprintf(buf, len, "%.*s.%s.%016" PRIx64 ".tmp", dirlen, path, path + dirlen, r);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

/* Makes the rename durable: the directory entry is on disk when this returns. */
static int sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	int fd, ret = 0;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) && errno != EINVAL) /* some file systems cannot sync a directory */
		ret = -errno;
	close(fd);
	return ret;
}

struct report_arg {
	const struct report *r;
	enum report_format fmt;
};

static int write_report(FILE *f, void *arg)
{
	const struct report_arg *a = arg;

	return report_write(f, a->r, a->fmt);
}

int snapshot_write(const char *path, const struct report *r, char *err, size_t errlen)
{
	struct report_arg a = { r, report_format_for(path) };

	return snapshot_commit(path, write_report, &a, err, errlen);
}

int snapshot_commit(const char *path, int (*write)(FILE *f, void *arg), void *arg, char *err,
		    size_t errlen)
{
	char tmp[4096];
	FILE *f = NULL;
	struct stat old;
	int fd = -1, ret, i;

	for (i = 0; i < TMP_TRIES && fd < 0; i++) {
		ret = tmp_name(path, tmp, sizeof(tmp));
		if (ret)
			goto out_err;
		/* a per-host table is nobody else's business: the owner's alone */
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST) {
			ret = -errno;
			goto out_err;
		}
	}
	if (fd < 0) {
		ret = -EEXIST;
		goto out_err;
	}
	/* unless it replaces a file, whose mode it keeps, as an editor's save does */
	if (!stat(path, &old) && S_ISREG(old.st_mode) && fchmod(fd, old.st_mode & 07777)) {
		ret = -errno;
		close(fd);
		goto out_unlink;
	}
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto out_unlink;
	}
	ret = write(f, arg);
	if (!ret && ferror(f))
		ret = -EIO;
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
	/* the new file is in place: a failure now can only make it less durable */
	ret = sync_dir(path);
	if (ret)
		snprintf(err, errlen,
			 "wrote snapshot '%s', but cannot sync its directory, so a crash may lose "
			 "it: %s",
			 path, strerror(-ret));
	return ret;

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

	const char *slash = strrchr(iface, '/'); /* a capture file's path: its name */
	const char *name = slash ? slash + 1 : iface, *p;
	int more = 0;

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	if (strlen(name) <= SNAPSHOT_NAME_IFACES) {
		snprintf(buf, len, "flowtop-%s-%s.txt", name, when);
		return;
	}
	for (p = name; (p = strchr(p, ',')); p++)
		more++;
	/* the first interface (a name is at most IFNAMSIZ), and how many more */
	snprintf(buf, len, "flowtop-%.*s+%d-%s.txt",
		 (int)(strchr(name, ',') ? strchr(name, ',') - name : SNAPSHOT_NAME_IFACES), name,
		 more, when);
}
