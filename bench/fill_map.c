// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fill_map.c: fills the hosts map of a running flowtop with N hosts, with
 * BPF_MAP_UPDATE_BATCH, so its sampling and drawing can be measured at that size.
 *
 *   fill_map PID N      the map is found among PID's fds (/proc/PID/fdinfo: map_id) */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fill_hosts.h"

/* The fd of PID's map called "hosts", or -1. */
static int find_hosts_map(const char *pid)
{
	char path[512], line[128];
	struct dirent *d;
	DIR *dir;
	int found = -1;

	snprintf(path, sizeof(path), "/proc/%s/fdinfo", pid);
	dir = opendir(path);
	while (dir && found < 0 && (d = readdir(dir))) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s", pid, d->d_name);
		f = fopen(path, "r");
		while (f && found < 0 && fgets(line, sizeof(line), f)) {
			unsigned id;
			struct bpf_map_info info = {};
			__u32 len = sizeof(info);
			int fd;

			if (sscanf(line, "map_id: %u", &id) != 1)
				continue;
			fd = bpf_map_get_fd_by_id(id);
			if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len) &&
			    !strcmp(info.name, "hosts"))
				found = fd;
			else if (fd >= 0)
				close(fd);
		}
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return found;
}

int main(int argc, char **argv)
{
	unsigned long n;
	unsigned count;
	int fd, err;

	if (argc != 3 || (n = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: fill_map PID N\n");
		return 2;
	}
	fd = find_hosts_map(argv[1]);
	if (fd < 0) {
		fprintf(stderr, "fill_map: no hosts map in process %s\n", argv[1]);
		return 1;
	}
	err = fill_hosts(fd, n, &count);
	if (err) {
		fprintf(stderr, "fill_map: %s after %u\n", strerror(-err), count);
		return 1;
	}
	printf("%u hosts\n", count);
	return 0;
}
