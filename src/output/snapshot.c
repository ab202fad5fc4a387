// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* snapshot.c: a temporary file of an unpredictable name, write, fsync, rename, fsync
 * of the directory; a device, a FIFO or standard output written as it is. */
#include "snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
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

/* How a snapshot reaches its path. */
enum target {
	TARGET_FILE,   /* a regular file or a new name: a temporary file renamed over it */
	TARGET_STREAM, /* a character device or a FIFO: opened and written as it is */
	TARGET_STDOUT, /* "-", or a name of flowtop's own standard output: written to it */
};

/* Says what path is, following its symbolic links as tcpdump's -w does, and fills name
 * with what a TARGET_FILE is written under: the link's target, so that the link stays a
 * link and the file it names is replaced (a missing target is created). A directory, a
 * socket or a block device is refused: -EISDIR, -EINVAL with err filled. 0 or -errno. */
static int snapshot_target(const char *path, char *name, enum target *t, char *err, size_t errlen)
{
	struct stat st, out;
	char link[PATH_MAX];
	const char *slash, *what;
	ssize_t n;
	int hops;

	*t = TARGET_STDOUT;
	if (!strcmp(path, "-"))
		return 0;
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	if (!stat(path, &st)) {
		/* /dev/stdout into the file the output is redirected to: written to, after
		 * the output, rather than renamed over it (which would lose the output) */
		if (!fstat(STDOUT_FILENO, &out) && st.st_dev == out.st_dev &&
		    st.st_ino == out.st_ino)
			return 0;
		*t = S_ISREG(st.st_mode) ? TARGET_FILE : TARGET_STREAM;
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
			strcpy(name, path);
			return 0;
		}
		if (S_ISREG(st.st_mode) && lstat(path, &out))
			return -errno;
		if (S_ISREG(st.st_mode) && !S_ISLNK(out.st_mode)) {
			strcpy(name, path);
			return 0;
		}
		if (S_ISREG(st.st_mode))
			return realpath(path, name) ? 0 : -errno;
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		what = S_ISSOCK(st.st_mode)  ? "a socket"
		       : S_ISBLK(st.st_mode) ? "a block device"
					     : "of an unknown kind";
		snprintf(err, errlen,
			 "cannot write snapshot '%s': it is %s; a snapshot goes to a regular file, "
			 "a new name, a character device or a FIFO",
			 path, what);
		return -EINVAL;
	}
	if (errno != ENOENT)
		return -errno;
	/* missing, or a link to a missing name: the name at the end of the links */
	*t = TARGET_FILE;
	strcpy(name, path);
	for (hops = 0; hops < 40; hops++) {
		if (lstat(name, &st))
			return errno == ENOENT ? 0 : -errno;
		if (!S_ISLNK(st.st_mode))
			return 0; /* it came to exist meanwhile: as it is */
		n = readlink(name, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		slash = strrchr(name, '/');
		if (link[0] == '/' || !slash)
			strcpy(name, link);
		else if ((size_t)(slash + 1 - name) + (size_t)n < PATH_MAX)
			strcpy(name + (slash + 1 - name), link);
		else
			return -ENAMETOOLONG;
	}
	return -ELOOP;
}

/* A temporary file beside name, written, synced and renamed over name; messages name
 * path, what the user gave (name is its link's target when it is a link). */
static int commit_file(const char *path, const char *name, int (*write)(FILE *f, void *arg),
		       void *arg, char *err, size_t errlen)
{
	char tmp[PATH_MAX + 64];
	FILE *f = NULL;
	struct stat old;
	int fd = -1, ret, i;

	for (i = 0; i < TMP_TRIES && fd < 0; i++) {
		ret = tmp_name(name, tmp, sizeof(tmp));
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
	if (!stat(name, &old) && S_ISREG(old.st_mode) && fchmod(fd, old.st_mode & 07777)) {
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
	if (rename(tmp, name)) {
		ret = -errno;
		goto out_unlink;
	}
	/* the new file is in place: a failure now can only make it less durable */
	ret = sync_dir(name);
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

/* The whole snapshot built in memory, then written to fd: a reader of a FIFO or a
 * terminal gets it in as few writes as the other end takes, and a short write is an
 * error said (/dev/full: ENOSPC), not a snapshot cut silently. */
static int write_whole(int fd, int (*write_fn)(FILE *f, void *arg), void *arg)
{
	char *buf = NULL;
	size_t len = 0, done = 0;
	FILE *f = open_memstream(&buf, &len);
	ssize_t n;
	int ret;

	if (!f)
		return -errno;
	ret = write_fn(f, arg);
	if (!ret && ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	while (!ret && done < len) {
		n = write(fd, buf + done, len - done);
		if (n < 0 && errno != EINTR)
			ret = -errno;
		else if (n == 0) /* a device that takes nothing: not a loop without end */
			ret = -EIO;
		else if (n > 0)
			done += (size_t)n;
	}
	free(buf);
	return ret;
}

/* A character device or a FIFO, opened as it is: never created, never truncated, never
 * replaced. A FIFO nobody reads is an error (ENXIO), not a wait without end (the
 * screen's d key would hang on it). */
static int commit_stream(const char *name, int (*write_fn)(FILE *f, void *arg), void *arg)
{
	struct stat st;
	int fd, ret, fl;

	fd = open(name, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
		ret = -EAGAIN; /* replaced meanwhile: written to as it was found, or not */
	else if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK))
		ret = -errno;
	else
		ret = write_whole(fd, write_fn, arg);
	close(fd);
	return ret;
}

int snapshot_commit(const char *path, int (*write)(FILE *f, void *arg), void *arg, char *err,
		    size_t errlen)
{
	char name[PATH_MAX];
	enum target t;
	int ret;

	err[0] = '\0';
	ret = snapshot_target(path, name, &t, err, errlen);
	if (!ret && t == TARGET_FILE)
		return commit_file(path, name, write, arg, err, errlen);
	if (!ret && t == TARGET_STREAM)
		ret = commit_stream(name, write, arg);
	if (!ret && t == TARGET_STDOUT)
		ret = fflush(stdout) ? -errno : write_whole(STDOUT_FILENO, write, arg);
	if (ret == -ENXIO && t == TARGET_STREAM)
		snprintf(err, errlen, "cannot write snapshot '%s': no process reads the FIFO",
			 path);
	else if (ret && !err[0])
		snprintf(err, errlen, "cannot write snapshot '%s': %s", path, strerror(-ret));
	return ret;
}

/* name's directory in dir (PATH_MAX bytes), for a message; dir. */
static char *dir_of(const char *name, char *dir)
{
	const char *slash = strrchr(name, '/');

	if (!slash)
		strcpy(dir, ".");
	else
		snprintf(dir, PATH_MAX, "%.*s", slash == name ? 1 : (int)(slash - name), name);
	return dir;
}

/* Whether a file can be made in name's directory: one is created there and removed
 * (/proc and /sys refuse it, where access() would not tell). */
static int probe_dir(const char *name)
{
	char tmp[PATH_MAX + 64];
	int fd, ret;

	ret = tmp_name(name, tmp, sizeof(tmp));
	if (ret)
		return ret;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	unlink(tmp);
	return 0;
}

int snapshot_check(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char name[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	enum target t;
	int ret;

	err[0] = '\0';
	if (slash && slash[1] == '\0') /* "dir/" names no file */
		ret = -EISDIR;
	else
		ret = snapshot_target(path, name, &t, err, errlen);
	if (!ret && t == TARGET_STREAM && access(name, W_OK))
		ret = -errno;
	if (!ret && t == TARGET_FILE && (ret = probe_dir(name)) && dir_of(name, dir) &&
	    !stat(dir, &st) && S_ISDIR(st.st_mode))
		snprintf(err, errlen, "cannot write snapshot '%s': cannot create a file in %s: %s",
			 path, dir, strerror(-ret));
	if (ret && !err[0])
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
