// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_report.c: the JSON, CSV and text renderings, read back by real parsers (jq and
 * Python's csv module), and the snapshot writer's atomicity. */
#include "test.h"

#include <errno.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "fmt.h"
#include "hosttab.h"
#include "report.h"
#include "snapshot.h"
#include "topk.h"

static char dir[] = "/tmp/flowtop-test-report-XXXXXX";
static struct hosttab *tab;
static struct flow_totals totals;
static const struct host *rows[3];
static struct report rep;

static int rate_order(const void *a, const void *b, void *arg)
{
	(void)arg;
	return host_cmp_rate(*(const struct host *const *)a, *(const struct host *const *)b);
}

static void build_report(void)
{
	const char *addrs[] = { "10.0.0.1", "2001:db8::2", "192.0.2.7" };
	struct flow_counters c[] = { { 4, 400, 2, 120 }, { 1, 1500, 0, 0 }, { 0, 0, 9, 900 } };
	struct flow_key k;
	int i;

	tab = hosttab_new(64);
	for (i = 0; i < 3; i++) {
		fmt_parse_addr(addrs[i], &k);
		hosttab_add(tab, &k, &c[i], 0);
	}
	hosttab_end(tab, 0.5);
	for (i = 0; i < 3; i++)
		rows[i] = hosttab_get(tab, (size_t)i);
	topk_select(rows, 3, sizeof(rows[0]), 3, rate_order, NULL);
	totals = (struct flow_totals){ .total = { .frames = 16,
						  .bytes = 2920,
						  .non_ip = 2,
						  .truncated = 1,
						  .new_entries = 5 },
				       .live_hosts = 3,
				       .evicted = 2,
				       .waiting = 1,
				       .capacity = 64,
				       .interval = 0.5 };
	rep = (struct report){ .iface = "ve\"th\\0",
			       .time = { 1796293738, 5000000 },
			       .totals = &totals,
			       .rows = rows,
			       .nrows = 3 };
}

/* Runs a shell command and returns its first output line (trailing newline cut). */
static const char *sh(const char *cmd)
{
	static char line[1024];
	FILE *p = popen(cmd, "r");

	line[0] = '\0';
	if (!p)
		return line;
	if (!fgets(line, sizeof(line), p))
		line[0] = '\0';
	pclose(p);
	line[strcspn(line, "\n")] = '\0';
	return line;
}

static void write_report(const char *path, const struct report *r, enum report_format fmt)
{
	FILE *f = fopen(path, "w");

	ASSERT_OK(report_write(f, r, fmt));
	fclose(f);
}

static void write_file(const char *path, enum report_format fmt)
{
	write_report(path, &rep, fmt);
}

static void test_json_parses_with_jq(void)
{
	char path[256], cmd[1024];

	snprintf(path, sizeof(path), "%s/r.json", dir);
	write_file(path, REPORT_JSON);
	snprintf(cmd, sizeof(cmd),
		 "jq -r '[.interface, .interval, .totals.packets, .totals.bytes, .totals.non_ip,"
		 " .totals.truncated, .totals.evicted, .totals.waiting, .other.hosts,"
		 " (.hosts | length), .hosts[0].ip,"
		 " .hosts[0].rx_bytes, .hosts[0].rx_bps, .hosts[2].ip, .hosts[2].tx_pps,"
		 " .time] | map(tostring) | join(\" \")' %s",
		 path);
	ASSERT_STREQ(sh(cmd), "ve\"th\\0 0.5 16 2920 2 1 2 1 3 3 2001:db8::2 1500 24000 "
			      "10.0.0.1 4 2026-12-03T10:28:58.005Z");
	snprintf(cmd, sizeof(cmd), "wc -l < %s", path);
	ASSERT_STREQ(sh(cmd), "1"); /* one object, one line: JSON Lines */
}

/* Two watched interfaces, eth0 (slot 1) and wg0 (slot 2, gone), and frames of an
 * interface without a slot: each in "interfaces" with its own totals, and each host
 * with the interfaces it was seen on. */
static void test_json_and_text_name_the_interfaces(void)
{
	struct iface_watch links[2] = {
		{ .info = { .name = "eth0", .ifindex = 2, .up = true }, .slot = 1 },
		{ .info = { .name = "wg0", .ifindex = 7 }, .slot = 2, .gone = true },
	};
	const char *addrs[] = { "10.0.0.1", "192.0.2.7", "2001:db8::2" };
	const uint64_t seen_on[] = { link_bit(1) | link_bit(2), link_bit(2),
				     link_bit(FLOWTOP_SLOT_NONE) | link_bit(1) };
	struct hosttab *t = hosttab_new(8);
	const struct host *several[3];
	struct report r = rep;
	struct flow_key k;
	char path[256], cmd[640];
	int i;

	for (i = 0; i < 3; i++) {
		fmt_parse_addr(addrs[i], &k);
		hosttab_add(t, &k, &(struct flow_counters){ 1, 100 * (i + 1), 0, 0 }, seen_on[i]);
	}
	hosttab_end(t, 0.5);
	for (i = 0; i < 3; i++)
		several[i] = hosttab_find(t, (fmt_parse_addr(addrs[i], &k), &k));
	totals.nslots = 3;
	totals.slot_total[0] = (struct flow_stats){ .frames = 1, .bytes = 60 };
	totals.slot_total[1] = (struct flow_stats){ .frames = 10, .bytes = 1000, .out_frames = 4 };
	totals.slot_total[2] = (struct flow_stats){ .frames = 5, .bytes = 1860 };
	totals.slot_delta[1] = (struct flow_stats){ .frames = 5, .bytes = 500 };
	r.iface = "eth0,wg0";
	r.links = links;
	r.nlinks = 2;
	r.several = true;
	r.rows = several;

	snprintf(path, sizeof(path), "%s/links.json", dir);
	write_report(path, &r, REPORT_JSON);
	snprintf(cmd, sizeof(cmd),
		 "jq -r '[(.interfaces[] | [.name, .state, .totals.packets, .totals.bytes,"
		 " .totals.out_packets] | map(tostring) | join(\":\")),"
		 " (.hosts[] | .ip + \"=\" + (.interfaces | join(\"+\")))] | join(\" \")' %s",
		 path);
	ASSERT_STREQ(sh(cmd), "eth0:up:10:1000:4 wg0:gone:5:1860:0 null:other:1:60:0 "
			      "10.0.0.1=eth0+wg0 192.0.2.7=wg0 2001:db8::2=eth0+other");

	snprintf(path, sizeof(path), "%s/links.txt", dir);
	write_report(path, &r, REPORT_TEXT);
	snprintf(cmd, sizeof(cmd),
		 "grep -c '^  eth0 (up): 10 packets 1000 bytes (10p/s 8.00kb/s)' %s", path);
	ASSERT_STREQ(sh(cmd), "1");
	snprintf(cmd, sizeof(cmd), "grep -c '^  wg0 (gone): 5 packets 1860 bytes' %s", path);
	ASSERT_STREQ(sh(cmd), "1");
	/* the noun agrees with its count */
	snprintf(cmd, sizeof(cmd), "grep -c '^  other interfaces (no slot): 1 packet 60 bytes' %s",
		 path);
	ASSERT_STREQ(sh(cmd), "1");
	snprintf(cmd, sizeof(cmd), "grep -c ' IFACE$' %s; grep -c ' eth0+wg0$' %s", path, path);
	ASSERT_STREQ(sh(cmd), "1");
	snprintf(cmd, sizeof(cmd), "awk '/^10.0.0.1 / { print $NF }' %s", path);
	ASSERT_STREQ(sh(cmd), "eth0+wg0");
	totals.nslots = 0;
	hosttab_free(t);
}

static void test_csv_parses_with_python(void)
{
	char path[256], cmd[512];

	snprintf(path, sizeof(path), "%s/r.csv", dir);
	write_file(path, REPORT_CSV);
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1])));"
		 " print(len(r), r[0][\"ip\"], r[1][\"ip\"], r[1][\"tx_bytes\"], r[1][\"tx_bps\"],"
		 " r[2][\"tx_packets\"], \",\".join(r[0].keys()))' %s",
		 path);
	ASSERT_STREQ(sh(cmd),
		     "3 2001:db8::2 192.0.2.7 900 14400.000 2 "
		     "ip,rx_packets,rx_bytes,tx_packets,tx_bytes,rx_pps,tx_pps,rx_bps,tx_bps");
}

static const char *json_of(const char *str)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	report_json_string(f, str);
	fclose(f);
	return buf;
}

static const char *csv_of(const char *str)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	report_csv_quoted(f, str);
	fclose(f);
	return buf;
}

static const char *port_csv(uint8_t proto, int port)
{
	static char buf[128];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct flow_key k;

	flow_key_port(&k, proto, port < 0 ? 0 : (uint16_t)port, port >= 0);
	report_csv_port(f, &k);
	fclose(f);
	return buf;
}

/* A port row's first CSV fields are always three, proto, port and service, empty where
 * it has none (a row without a port, or the protocol unknown, keeps its columns). */
static void test_port_csv_fields(void)
{
	ASSERT_STREQ(port_csv(IPPROTO_TCP, 443), "tcp,443,https");
	ASSERT_STREQ(port_csv(IPPROTO_TCP, 5201), "tcp,5201,");
	ASSERT_STREQ(port_csv(IPPROTO_TCP, -1), "tcp,,");
	ASSERT_STREQ(port_csv(IPPROTO_GRE, -1), "gre,,");
	ASSERT_STREQ(port_csv(FLOWTOP_PROTO_UNKNOWN, -1), ",,");
}

/* A CSV cell of a name anyone may give: quoted, its quotes doubled, a spreadsheet's
 * formula made text, control bytes and what is not UTF-8 made visible. */
static void test_csv_cells_are_inert(void)
{
	char buf[64];

	ASSERT_STREQ(csv_of("eth0"), "\"eth0\"");
	ASSERT_STREQ(csv_of("a,\"b\""), "\"a,\"\"b\"\"\"");
	ASSERT_STREQ(csv_of("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
	ASSERT_STREQ(csv_of("+1"), "\"+1\""); /* numbers and the placeholder "-" as they are */
	ASSERT_STREQ(csv_of("-1.5"), "\"-1.5\"");
	ASSERT_STREQ(csv_of("-"), "\"-\"");
	ASSERT_STREQ(csv_of("-2+3"), "\"'-2+3\"");
	ASSERT_STREQ(csv_of("@SUM"), "\"'@SUM\"");
	ASSERT_STREQ(csv_of("e\033]0;PWN\007"), "\"e^[]0;PWN^G\"");
	ASSERT_STREQ(csv_of("caf\xc3\xa9\xff\x7f\xc2\x9b"), "\"caf\xc3\xa9\\xff^?\\u009b\"");
	ASSERT_STREQ(fmt_visible("n\033]0;X\007y", buf, sizeof(buf)), "n^[]0;X^Gy");
	/* cut between whole characters: "ab" and not half of ^[ */
	ASSERT_STREQ(fmt_visible("ab\033c", buf, 4), "ab");
}

/* Interface names are bytes: what is not UTF-8 is escaped, so jq still reads the line. */
static void test_json_strings_escape_invalid_utf8(void)
{
	char path[256], cmd[512];
	FILE *f;

	ASSERT_STREQ(json_of("eth0"), "\"eth0\"");
	ASSERT_STREQ(json_of("caf\xc3\xa9"), "\"caf\xc3\xa9\""); /* valid UTF-8 as is */
	ASSERT_STREQ(json_of("a\xff\xc3("), "\"a\\u00ff\\u00c3(\"");
	ASSERT_STREQ(json_of("\xe0\x80\xaf"), "\"\\u00e0\\u0080\\u00af\""); /* overlong */
	ASSERT_STREQ(json_of("\xed\xa0\x80"), "\"\\u00ed\\u00a0\\u0080\""); /* surrogate */
	ASSERT_STREQ(json_of("q\"\\\n"), "\"q\\\"\\\\\\u000a\"");
	snprintf(path, sizeof(path), "%s/bytes.json", dir);
	f = fopen(path, "w");
	report_json_string(f, "v\xfe\xc0x");
	fclose(f);
	snprintf(cmd, sizeof(cmd), "jq -r 'length' %s", path);
	ASSERT_STREQ(sh(cmd), "4");
}

static const char *json_head_of(int digits, const char *iface, const char *file, const char *expr)
{
	static char buf[256];
	struct timespec ts = { .tv_sec = 1796293738, .tv_nsec = 123456789 };
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	report_json_head(f, &ts, digits, iface, file, expr);
	fclose(f);
	return buf;
}

/* The members a sample, a snapshot and the screen's dump open with, as they are. */
static void test_json_head(void)
{
	ASSERT_STREQ(json_head_of(0, "eth0", NULL, NULL),
		     "{\"time\":\"2026-12-03T10:28:58.123Z\",\"interface\":\"eth0\"");
	ASSERT_STREQ(json_head_of(6, "eth0", "a.pcap", "tcp port 443"),
		     "{\"time\":\"2026-12-03T10:28:58.123456Z\",\"file\":\"a.pcap\","
		     "\"expression\":\"tcp port 443\"");
	ASSERT_STREQ(json_head_of(3, "eth0,wg0", NULL, "a\"b"),
		     "{\"time\":\"2026-12-03T10:28:58.123Z\",\"interface\":\"eth0,wg0\","
		     "\"expression\":\"a\\\"b\"");
}

static void test_text_has_header_and_rows(void)
{
	char path[256], cmd[512];

	snprintf(path, sizeof(path), "%s/r.txt", dir);
	write_file(path, REPORT_TEXT);
	snprintf(cmd, sizeof(cmd), "sed -n 4p %s | tr -s ' '", path);
	ASSERT_STREQ(sh(cmd), "2001:db8::2 1 1500 0 0 24.0kb/s 0b/s");
	snprintf(
	    cmd, sizeof(cmd),
	    "grep -c 'non-IP 2  truncated 1  lost 0  spilled 0  unmatched 0  evicted 2  waiting "
	    "1  hosts 3/64' %s",
	    path);
	ASSERT_STREQ(sh(cmd), "1");
}

static void test_format_by_extension(void)
{
	ASSERT_EQ(report_format_for("a.json"), REPORT_JSON);
	ASSERT_EQ(report_format_for("dir.csv/A.JSON"), REPORT_JSON);
	ASSERT_EQ(report_format_for("x.CSV"), REPORT_CSV);
	ASSERT_EQ(report_format_for("x.txt"), REPORT_TEXT);
	ASSERT_EQ(report_format_for("dir.json/x"), REPORT_TEXT);
	ASSERT_EQ(report_format_for("noext"), REPORT_TEXT);
}

/* Entries in dir/snap, where the snapshot tests write. */
static int count_files(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "ls -A %s/snap | wc -l", dir);
	return atoi(sh(cmd));
}

static void test_snapshot_replaces_whole_file(void)
{
	char path[256], cmd[512], msg[256];
	struct stat st;
	mode_t old = umask(022);

	snprintf(path, sizeof(path), "%s/snap/snap.json", dir);
	snprintf(cmd, sizeof(cmd), "echo old > %s", path);
	ASSERT_OK(system(cmd));
	ASSERT_OK(snapshot_write(path, &rep, msg, sizeof(msg)));
	snprintf(cmd, sizeof(cmd), "jq -r '.hosts | length' %s", path);
	ASSERT_STREQ(sh(cmd), "3");
	ASSERT_OK(stat(path, &st));
	ASSERT_EQ(st.st_mode & 0777, 0644); /* the mode of the file it replaced */
	ASSERT_OK(chmod(path, 0640));
	ASSERT_OK(snapshot_write(path, &rep, msg, sizeof(msg)));
	ASSERT_OK(stat(path, &st));
	ASSERT_EQ(st.st_mode & 0777, 0640);
	unlink(path);
	ASSERT_OK(snapshot_write(path, &rep, msg, sizeof(msg))); /* a new one: the owner's */
	ASSERT_OK(stat(path, &st));
	ASSERT_EQ(st.st_mode & 0777, 0600);
	umask(old);
	unlink(path);
	ASSERT_EQ(count_files(), 0); /* no temporary file left behind */
}

/* The default name: the interface or the capture file's name, and a long list of
 * interfaces cut to its first and how many more, so it stays a name a file may have. */
static void test_snapshot_default_names(void)
{
	char list[512] = "", name[512];
	int i;

	snapshot_default_name("eth0", name, sizeof(name));
	ASSERT_TRUE(!strncmp(name, "flowtop-eth0-2", 14) && strstr(name, ".txt"));
	snapshot_default_name("/var/tmp/dump.pcap", name, sizeof(name));
	ASSERT_TRUE(!strncmp(name, "flowtop-dump.pcap-", 18));
	for (i = 0; i < 15; i++) /* 15 names of 14 bytes, comma-separated: 224 bytes */
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%senp129s0f%dnp%02d",
			 i ? "," : "", i % 10, i);
	ASSERT_TRUE(strlen(list) > 200);
	snapshot_default_name(list, name, sizeof(name));
	ASSERT_TRUE(!strncmp(name, "flowtop-enp129s0f0np00+14-2", 27));
	ASSERT_TRUE(strlen(name) < 64);
}

static void test_snapshot_failure_leaves_target_alone(void)
{
	char path[256], msg[256];

	/* a directory in the way: rename fails, the directory and its content survive */
	snprintf(path, sizeof(path), "%s/snap/busy.csv", dir);
	ASSERT_OK(mkdir(path, 0755));
	ASSERT_EQ(snapshot_write(path, &rep, msg, sizeof(msg)), -EISDIR);
	ASSERT_TRUE(strstr(msg, "busy.csv") && strstr(msg, "Is a directory"));
	ASSERT_EQ(count_files(), 1);
	rmdir(path);
	/* a directory that does not exist */
	snprintf(path, sizeof(path), "%s/snap/nowhere/x.json", dir);
	ASSERT_EQ(snapshot_write(path, &rep, msg, sizeof(msg)), -ENOENT);
	ASSERT_TRUE(strstr(msg, "No such file") != NULL);
	ASSERT_EQ(count_files(), 0);
}

/* fsync as the tests want it: the real one, but failing with EIO on a directory while
 * fail_dir_sync is set (this definition takes the place of libc's in this program) */
static bool fail_dir_sync;

int fsync(int fd)
{
	struct stat st;

	if (fail_dir_sync && !fstat(fd, &st) && S_ISDIR(st.st_mode)) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_fsync, fd);
}

/* The directory cannot be synced after the rename: the new file is in place, and the
 * error says that much, not that nothing was written. */
static void test_snapshot_dir_sync_failure_says_what_is_written(void)
{
	char path[256], cmd[512], msg[256];

	snprintf(path, sizeof(path), "%s/snap/synced.json", dir);
	snprintf(cmd, sizeof(cmd), "echo old > %s", path);
	ASSERT_OK(system(cmd));
	fail_dir_sync = true;
	ASSERT_EQ(snapshot_write(path, &rep, msg, sizeof(msg)), -EIO);
	fail_dir_sync = false;
	ASSERT_TRUE(strstr(msg, "wrote snapshot") && strstr(msg, "cannot sync its directory"));
	snprintf(cmd, sizeof(cmd), "jq -r '.hosts | length' %s", path);
	ASSERT_STREQ(sh(cmd), "3");
	unlink(path);
	ASSERT_EQ(count_files(), 0);
}

/* Names planted where a predictable scheme (.name.PID.N.tmp) would put its temporary
 * files cannot block a snapshot, nor redirect it: the names are random, opened with
 * O_EXCL|O_NOFOLLOW, and the symlinks' target stays untouched. */
static void test_snapshot_ignores_planted_symlinks(void)
{
	char path[256], link[512], victim[256], cmd[1024], msg[256];
	int i;

	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(cmd, sizeof(cmd), "echo precious > %s", victim);
	ASSERT_OK(system(cmd));
	snprintf(path, sizeof(path), "%s/snap/s.txt", dir);
	for (i = 0; i < 64; i++) {
		snprintf(link, sizeof(link), "%s/snap/.s.txt.%ld.%d.tmp", dir, (long)getpid(), i);
		ASSERT_OK(symlink(victim, link));
	}
	ASSERT_OK(snapshot_write(path, &rep, msg, sizeof(msg)));
	ASSERT_OK(snapshot_write(path, &rep, msg, sizeof(msg)));
	snprintf(cmd, sizeof(cmd), "cat %s", victim);
	ASSERT_STREQ(sh(cmd), "precious");
	ASSERT_EQ(count_files(), 65); /* the planted names and the snapshot, no temporary */
	snprintf(cmd, sizeof(cmd), "rm -f %s/snap/.s.txt.*.tmp", dir);
	ASSERT_OK(system(cmd));
	ASSERT_EQ(count_files(), 1);
	unlink(path);
}

/* A FIFO is written as it is, the whole snapshot through it, and stays a FIFO; one that
 * nobody reads is an error said, not a wait without end. */
static void test_snapshot_to_fifo(void)
{
	char path[256], cmd[512], msg[256], buf[8192];
	struct stat st;
	ssize_t n;
	size_t got = 0;
	FILE *f;
	int rd;

	snprintf(path, sizeof(path), "%s/snap/fifo.json", dir);
	ASSERT_OK(mkfifo(path, 0600));
	rd = open(path, O_RDONLY | O_NONBLOCK); /* the reader; the snapshot fits the pipe */
	ASSERT_TRUE(rd >= 0);
	ASSERT_OK(snapshot_write(path, &rep, msg, sizeof(msg)));
	while ((n = read(rd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(rd);
	snprintf(cmd, sizeof(cmd), "%s/fifo.out", dir);
	f = fopen(cmd, "w");
	ASSERT_TRUE(f != NULL);
	fputs(buf, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "jq -r '.hosts | length' %s/fifo.out", dir);
	ASSERT_STREQ(sh(cmd), "3");
	ASSERT_OK(lstat(path, &st));
	ASSERT_TRUE(S_ISFIFO(st.st_mode));
	ASSERT_EQ(snapshot_write(path, &rep, msg, sizeof(msg)), -ENXIO);
	ASSERT_TRUE(strstr(msg, "fifo.json") && strstr(msg, "no process reads the FIFO"));
	ASSERT_OK(lstat(path, &st));
	ASSERT_TRUE(S_ISFIFO(st.st_mode));
	unlink(path);
	ASSERT_EQ(count_files(), 0); /* no temporary file left behind */
}

/* A character device is written as it is, never replaced: /dev/null takes it, /dev/full
 * fails with ENOSPC, said, and both stay devices. */
static void test_snapshot_to_char_device(void)
{
	char null[256], full[256], msg[256];
	struct stat st;

	snprintf(null, sizeof(null), "%s/snap/null", dir);
	snprintf(full, sizeof(full), "%s/snap/full.csv", dir);
	if (mknod(null, S_IFCHR | 0600, makedev(1, 3))) {
		test_cannot_run("mknod needs CAP_MKNOD");
		return;
	}
	ASSERT_OK(mknod(full, S_IFCHR | 0600, makedev(1, 7)));
	ASSERT_OK(snapshot_check(null, msg, sizeof(msg)));
	ASSERT_OK(snapshot_write(null, &rep, msg, sizeof(msg)));
	ASSERT_OK(lstat(null, &st));
	ASSERT_TRUE(S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3));
	ASSERT_OK(snapshot_check(full, msg, sizeof(msg)));
	ASSERT_EQ(snapshot_write(full, &rep, msg, sizeof(msg)), -ENOSPC);
	ASSERT_TRUE(strstr(msg, "full.csv") && strstr(msg, "No space left on device"));
	ASSERT_OK(lstat(full, &st));
	ASSERT_TRUE(S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 7));
	unlink(null);
	unlink(full);
	ASSERT_EQ(count_files(), 0);
}

/* A symbolic link is followed, as tcpdump -w follows it: the file it names is replaced
 * (its mode kept) and the link stays a link; a link to a missing name creates it. */
static void test_snapshot_follows_symlinks(void)
{
	char target[256], link[256], path[256], cmd[600], msg[256];
	struct stat st;

	snprintf(target, sizeof(target), "%s/snap/target.json", dir);
	snprintf(link, sizeof(link), "%s/snap/link.json", dir);
	snprintf(cmd, sizeof(cmd), "echo old > %s && chmod 0640 %s", target, target);
	ASSERT_OK(system(cmd));
	ASSERT_OK(symlink("target.json", link));
	ASSERT_OK(snapshot_check(link, msg, sizeof(msg)));
	ASSERT_OK(snapshot_write(link, &rep, msg, sizeof(msg)));
	ASSERT_OK(lstat(link, &st));
	ASSERT_TRUE(S_ISLNK(st.st_mode));
	ASSERT_OK(stat(target, &st));
	ASSERT_EQ(st.st_mode & 0777, 0640);
	snprintf(cmd, sizeof(cmd), "jq -r '.hosts | length' %s", target);
	ASSERT_STREQ(sh(cmd), "3");
	unlink(link);
	unlink(target);
	/* a dangling link: its target is made */
	snprintf(path, sizeof(path), "%s/snap/new.json", dir);
	ASSERT_OK(symlink(path, link));
	ASSERT_OK(snapshot_check(link, msg, sizeof(msg)));
	ASSERT_OK(snapshot_write(link, &rep, msg, sizeof(msg)));
	ASSERT_OK(lstat(link, &st));
	ASSERT_TRUE(S_ISLNK(st.st_mode));
	snprintf(cmd, sizeof(cmd), "jq -r '.hosts | length' %s", path);
	ASSERT_STREQ(sh(cmd), "3");
	unlink(link);
	unlink(path);
	ASSERT_EQ(count_files(), 0);
}

/* What cannot take a snapshot is refused, at start and at the write, and left as it
 * was: a directory, a socket, a directory where no file can be created (/proc). */
static void test_snapshot_refuses_other_kinds(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char path[256], msg[256];
	struct stat st;
	int s;

	snprintf(path, sizeof(path), "%s/snap/d.csv", dir);
	ASSERT_OK(mkdir(path, 0755));
	ASSERT_EQ(snapshot_check(path, msg, sizeof(msg)), -EISDIR);
	ASSERT_TRUE(strstr(msg, "Is a directory") != NULL);
	rmdir(path);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/snap/sock.csv", dir);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_OK(bind(s, (struct sockaddr *)&sa, sizeof(sa)));
	ASSERT_EQ(snapshot_check(sa.sun_path, msg, sizeof(msg)), -EINVAL);
	ASSERT_TRUE(strstr(msg, "it is a socket") != NULL);
	ASSERT_EQ(snapshot_write(sa.sun_path, &rep, msg, sizeof(msg)), -EINVAL);
	ASSERT_OK(lstat(sa.sun_path, &st));
	ASSERT_TRUE(S_ISSOCK(st.st_mode));
	close(s);
	unlink(sa.sun_path);
	ASSERT_EQ(count_files(), 0);
	ASSERT_TRUE(snapshot_check("/proc/x.csv", msg, sizeof(msg)) < 0);
	ASSERT_TRUE(strstr(msg, "cannot create a file in /proc") != NULL);
}

/* "-" is standard output: the snapshot written to it, whole, and no file named "-". */
static void test_snapshot_dash_is_stdout(void)
{
	char msg[256], buf[4096];
	int p[2], saved, ret;
	ssize_t n;

	ASSERT_OK(pipe(p));
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	ASSERT_TRUE(saved >= 0);
	dup2(p[1], STDOUT_FILENO);
	ret = snapshot_write("-", &rep, msg, sizeof(msg));
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(p[1]);
	ASSERT_OK(ret);
	n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	ASSERT_TRUE(n > 0);
	buf[n > 0 ? n : 0] = '\0';
	ASSERT_TRUE(strstr(buf, "ADDRESS") && strstr(buf, "192.0.2.7"));
	ASSERT_TRUE(access("-", F_OK) != 0);
}

/* A sample of BIG_HOSTS hosts, some 150 bytes of JSON each (90 KB): many times stdio's
 * buffer, and more than a pipe of one page holds. */
#define BIG_HOSTS 600
static struct hosttab *big_tab;
static const struct host *big_rows[BIG_HOSTS];
static struct report big;

static void build_big_report(void)
{
	struct flow_counters c = { 1, 1500, 2, 3000 };
	struct flow_key k;
	char addr[32];
	int i;

	big_tab = hosttab_new(1024);
	for (i = 0; i < BIG_HOSTS; i++) {
		snprintf(addr, sizeof(addr), "10.1.%d.%d", i / 200, i % 200 + 1);
		fmt_parse_addr(addr, &k);
		hosttab_add(big_tab, &k, &c, 0);
	}
	hosttab_end(big_tab, 1.0);
	for (i = 0; i < BIG_HOSTS; i++)
		big_rows[i] = hosttab_get(big_tab, (size_t)i);
	big = rep;
	big.rows = big_rows;
	big.nrows = BIG_HOSTS;
}

/* What report_write() makes of r, in *len bytes (free it). */
static char *rendered(const struct report *r, enum report_format fmt, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (f) {
		report_write(f, r, fmt);
		fclose(f);
	}
	return buf;
}

/* A socket of messages: each write(2) is one message, so a sample sent in one write is
 * read in one recv(), whole. */
static void test_send_is_one_write(void)
{
	static char msg[1 << 20];
	size_t len;
	char *want = rendered(&big, REPORT_JSON, &len);
	int sv[2], size = 1 << 20;
	ssize_t n;

	if (!ASSERT_TRUE(want) || !ASSERT_OK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))) {
		free(want);
		return;
	}
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	ASSERT_TRUE(len > 64 * 1024);
	ASSERT_OK(report_send(sv[0], &big, REPORT_JSON));
	n = recv(sv[1], msg, sizeof(msg), MSG_DONTWAIT);
	if (ASSERT_EQ(n, len))
		ASSERT_TRUE(!memcmp(msg, want, len));
	ASSERT_EQ(recv(sv[1], msg, sizeof(msg), MSG_DONTWAIT), -1); /* and nothing after it */
	close(sv[0]);
	close(sv[1]);
	free(want);
}

struct slow_reader {
	int fd;
	char *buf; /* what was read, len bytes of cap */
	size_t len, cap;
};

/* Reads fd to its end a little at a time, so the writer keeps finding the pipe full. */
static void *read_slowly(void *arg)
{
	struct slow_reader *s = arg;
	ssize_t n;

	for (;;) {
		if (s->len == s->cap)
			break;
		n = read(s->fd, s->buf + s->len, s->cap - s->len < 1000 ? s->cap - s->len : 1000);
		if (n <= 0)
			break;
		s->len += (size_t)n;
		usleep(200);
	}
	return NULL;
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* Into a pipe of one page read slowly, with a signal every millisecond that restarts
 * nothing (no SA_RESTART): write(2) comes back short, or with EINTR, many times over,
 * and the sample still arrives whole, once. */
static void test_send_goes_on_after_short_writes_and_signals(void)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval every_ms = { { 0, 1000 }, { 0, 1000 } }, off = {};
	struct slow_reader s = {};
	sigset_t alrm;
	pthread_t reader;
	size_t len;
	char *want = rendered(&big, REPORT_TEXT, &len);
	int p[2], err;

	if (!ASSERT_TRUE(want) || !ASSERT_OK(pipe(p))) {
		free(want);
		return;
	}
	fcntl(p[1], F_SETPIPE_SZ, 4096);
	s = (struct slow_reader){ .fd = p[0], .buf = calloc(1, len + 1), .cap = len + 1 };
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, NULL); /* the reader never takes the signal */
	if (!ASSERT_TRUE(s.buf) || !ASSERT_OK(pthread_create(&reader, NULL, read_slowly, &s))) {
		pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);
		free(s.buf);
		free(want);
		return;
	}
	pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);
	sigaction(SIGALRM, &sa, &old);
	alarms = 0;
	setitimer(ITIMER_REAL, &every_ms, NULL);
	err = report_send(p[1], &big, REPORT_TEXT);
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);
	close(p[1]);
	pthread_join(reader, NULL);
	close(p[0]);
	ASSERT_OK(err);
	ASSERT_TRUE(alarms > 0);
	if (ASSERT_EQ(s.len, len))
		ASSERT_TRUE(!memcmp(s.buf, want, len));
	free(s.buf);
	free(want);
}

/* The reader gone: -EPIPE, for the batch loop to end on. */
static void test_send_says_epipe(void)
{
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	int p[2];

	if (!ASSERT_OK(pipe(p)))
		return;
	close(p[0]);
	ASSERT_EQ(report_send(p[1], &rep, REPORT_JSON), -EPIPE);
	close(p[1]);
	signal(SIGPIPE, old);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	{
		char sub[300];

		snprintf(sub, sizeof(sub), "%s/snap", dir);
		if (mkdir(sub, 0755)) {
			perror("mkdir");
			return 1;
		}
	}
	build_report();
	build_big_report();
	RUN_TEST(test_json_parses_with_jq);
	RUN_TEST(test_csv_parses_with_python);
	RUN_TEST(test_port_csv_fields);
	RUN_TEST(test_json_and_text_name_the_interfaces);
	RUN_TEST(test_json_strings_escape_invalid_utf8);
	RUN_TEST(test_csv_cells_are_inert);
	RUN_TEST(test_json_head);
	RUN_TEST(test_text_has_header_and_rows);
	RUN_TEST(test_format_by_extension);
	RUN_TEST(test_snapshot_replaces_whole_file);
	RUN_TEST(test_snapshot_default_names);
	RUN_TEST(test_snapshot_failure_leaves_target_alone);
	RUN_TEST(test_snapshot_dir_sync_failure_says_what_is_written);
	RUN_TEST(test_snapshot_ignores_planted_symlinks);
	RUN_TEST(test_snapshot_to_fifo);
	RUN_TEST(test_snapshot_to_char_device);
	RUN_TEST(test_snapshot_follows_symlinks);
	RUN_TEST(test_snapshot_refuses_other_kinds);
	RUN_TEST(test_snapshot_dash_is_stdout);
	RUN_TEST(test_send_is_one_write);
	RUN_TEST(test_send_goes_on_after_short_writes_and_signals);
	RUN_TEST(test_send_says_epipe);
	hosttab_free(tab);
	hosttab_free(big_tab);
	{
		char cmd[512];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			test_failed++;
	}
	return test_summary("test_report");
}
