# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Makefile: builds ./flowtop (the BPF object compiled with clang and embedded as a
# skeleton with bpftool), runs the tests, installs. `make V=1` shows the commands;
# `make SAN=1 ...` builds and tests with AddressSanitizer and UBSan into .output-san/.

CLANG ?= clang
BPFTOOL ?= $(or $(shell command -v bpftool 2>/dev/null),/usr/sbin/bpftool)
PKG_CONFIG ?= pkg-config
CLANG_FORMAT ?= clang-format
PREFIX ?= /usr/local
IFACE ?=

ifeq ($(SAN),1)
OUT := .output-san
BIN := $(OUT)/flowtop
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
OUT := .output
BIN := flowtop
SANFLAGS :=
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif
say = $(if $(Q),@printf '  %-7s %s\n' '$(1)' '$(2)')

MULTIARCH := $(shell $(CC) -dumpmachine 2>/dev/null)
WARNINGS := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes \
	-Wcast-qual -Wpointer-arith -Wundef -Wwrite-strings
CFLAGS ?= -O2 -g
# recursive (=): pkg-config runs only when something is compiled, after `deps`
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags libbpf libelf zlib ncursesw libcap-ng libmicrohttpd libpcap libloc)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs libbpf libelf zlib ncursesw libcap-ng libmicrohttpd libpcap libloc)
BASE_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARNINGS) $(if $(WERROR),-Werror) $(SANFLAGS) $(CPPFLAGS) $(CFLAGS) \
	$(PKG_CFLAGS) -MMD -MP
# the layers, bottom first (the README's "Source layout" says what each holds): a
# directory builds with the include paths of itself and the layers below it only, so an
# include of a higher layer's header does not compile (tests/layers.py checks the rest)
LAYERS := bpf src/util src/kernel src/expr src/count src/model src/output src/run ui src/app
# the layers from the bottom up to $1
upto = $(firstword $2) $(if $(filter $1,$(firstword $2)),,$(call upto,$1,$(wordlist 2,$(words $2),$2)))
layer_cflags = $(BASE_CFLAGS) $(addprefix -I,$(call upto,$1,$(LAYERS)))
ALL_CFLAGS = $(BASE_CFLAGS) $(addprefix -I,$(LAYERS))
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)
BPF_CFLAGS := -g -O2 -target bpf -Wall -Werror -Werror=undef -I/usr/include/$(MULTIARCH) -Ibpf

CODE_DIRS := $(filter-out bpf,$(LAYERS))
LIB_SRCS := $(filter-out src/app/main.c,$(foreach d,$(CODE_DIRS),$(wildcard $(d)/*.c)))
LIB_OBJS := $(LIB_SRCS:%.c=$(OUT)/%.o)
UNIT_TESTS := $(patsubst tests/unit/%.c,$(OUT)/tests/%,$(wildcard tests/unit/test_*.c))
KERN_TESTS := $(patsubst tests/kern/%.c,$(OUT)/tests/%,$(wildcard tests/kern/test_*.c))
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(OUT)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SRCS := src/app/cli.c src/util/fmt.c src/model/rowfilter.c src/model/columns.c src/count/hosttab.c \
	src/kernel/iface.c src/count/pcapfile.c src/model/groups.c src/model/geo.c src/model/geoq.c \
	src/model/ports.c src/count/convo.c \
	src/util/workq.c src/expr/expr.c src/expr/cbpf.c src/expr/judge.c
FUZZ_SECONDS ?= 300
FORMAT_SRCS = $(wildcard bpf/*.h bpf/*.c src/*/*.c src/*/*.h ui/*.c ui/*.h tests/*.h tests/*/*.c tests/*/*.h bench/*.c)

.PHONY: all deps test-deps kernel-deps deb run check check-fast check-kernels check-e2e check-stress tests bench screenshots lint-man fuzz soak corpus-expect check-format format clean install uninstall
.DELETE_ON_ERROR:

all: $(BIN)

deps:
	$(Q).ci/deps.sh build

test-deps:
	$(Q).ci/deps.sh test

# build in a second make, so that pkg-config sees what deps installed
run: deps
	$(Q)$(MAKE) --no-print-directory all
	./$(BIN) $(if $(IFACE),-i $(IFACE))

# every test; the README's test command and CI's (tests/run.sh says what each tier runs)
check: test-deps
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)$(RUN_TESTS)

# the edit-build-test loop: format, unit and kernel tests, the fuzz targets over their
# committed seeds; a few seconds
check-fast: test-deps
	$(Q)$(MAKE) --no-print-directory $(UNIT_TESTS) $(KERN_TESTS) $(FUZZ_TARGETS)
	$(Q)$(RUN_TESTS) --fast

# the kernel tier: Debian 11's Linux 5.10, Debian 12's 6.1 and Debian 13's 6.12 (5.10
# and 6.12 unpacked into KERNEL_DIR)
# booted under qemu run the verifier's budget, the kernel tests and the live suites
# (tests/kernels/run.sh says which); minutes under TCG. KERNELS=6.1 picks one
KERNEL_DIR ?= .output/kernels
check-kernels: kernel-deps
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)FLOWTOP=$(BIN) TESTBIN=$(OUT)/tests KERNEL_DIR=$(KERNEL_DIR) tests/kernels/run.sh

kernel-deps:
	$(Q)KERNEL_DIR=$(KERNEL_DIR) .ci/deps.sh kernels

# chosen suites: make check-e2e SUITE='e2e_tui test_view'
check-e2e: test-deps
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)$(RUN_TESTS) $(or $(SUITE),$(error name the suites: make check-e2e SUITE=e2e_tui))

# the end-to-end tier REPEAT (3) times over, a busy loop on one CPU and namespaces of
# another program coming and going meanwhile: a test that passes only on a quiet machine
# fails here
REPEAT ?= 3
check-stress: test-deps
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)$(RUN_TESTS) --repeat $(REPEAT) --load e2e

RUN_TESTS = FLOWTOP=$(BIN) TESTBIN=$(OUT)/tests tests/run.sh

# everything the tests run: they build nothing themselves
tests: $(BIN) $(UNIT_TESTS) $(KERN_TESTS) $(FUZZ_TARGETS) $(OUT)/bench/flood_send $(OUT)/bench/churn_send \
	$(OUT)/tests/fault.so $(OUT)/tests/vlan_push.bpf.o

# a tc classifier the e2e tests attach: VLAN tags pushed on transmit
$(OUT)/tests/vlan_push.bpf.o: tests/e2e/vlan_push.bpf.c | $(OUT)/tests
	$(call say,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# faults the e2e tests preload (tests/e2e/fault.c says which)
$(OUT)/tests/fault.so: tests/e2e/fault.c | $(OUT)/tests
	$(call say,CC,$@)
	$(Q)$(CC) -std=gnu11 $(WARNINGS) $(if $(WERROR),-Werror) -O2 -shared -fPIC $< -ldl -o $@

ifeq ($(SAN),1)
# valgrind cannot run a sanitized binary: under SAN=1, e2e_faults memchecks the plain one
tests: plain
.PHONY: plain
plain:
	$(Q)$(MAKE) --no-print-directory SAN=0 flowtop
endif

$(OUT) $(OUT)/tests $(OUT)/fuzz:
	$(Q)mkdir -p $@

$(OUT)/flowtop.bpf.o: bpf/flowtop.bpf.c bpf/flowtop.h | $(OUT)
	$(call say,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# the same program counting ports too (--group port): the loader takes its ELF bytes
# alone, and opens them with flowtop_bpf's skeleton (the two have the same maps,
# programs and globals)
$(OUT)/flowtop_ports.bpf.o: bpf/flowtop.bpf.c bpf/flowtop.h | $(OUT)
	$(call say,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DCOUNT_PORTS=1 -c $< -o $@

$(OUT)/flowtop.skel.h: $(OUT)/flowtop.bpf.o
	$(call say,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name flowtop_bpf > $@

$(OUT)/flowtop_ports.skel.h: $(OUT)/flowtop_ports.bpf.o
	$(call say,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name flowtop_ports_bpf > $@

# the loader embeds the skeleton, which only its layer sees
$(OUT)/src/kernel/%.o: EXTRA_INCLUDES := -I$(OUT)
$(filter $(OUT)/src/kernel/%,$(LIB_OBJS)): $(OUT)/flowtop.skel.h $(OUT)/flowtop_ports.skel.h

$(OUT)/%.o: %.c
	$(call say,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(call layer_cflags,$(patsubst %/,%,$(dir $<))) $(EXTRA_INCLUDES) -c $< -o $@

$(OUT)/libflowtop.a: $(LIB_OBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BIN): $(OUT)/src/app/main.o $(OUT)/libflowtop.a
	$(call say,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $^ $(PKG_LIBS) -lm -lpthread -o $@

# unit (tests/unit) and kernel (tests/kern) tests alike
.SECONDEXPANSION:
$(UNIT_TESTS) $(KERN_TESTS): $(OUT)/tests/%: $$(wildcard tests/unit/%.c tests/kern/%.c) tests/test.h tests/unit/hosts.h tests/kern/frames.h tests/kern/runner.h \
		$(OUT)/libflowtop.a | $(OUT)/tests
	$(call say,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests $< $(OUT)/libflowtop.a $(ALL_LDFLAGS) $(PKG_LIBS) -lm -lpthread -o $@

# PNGs of the real program on real traffic, for the README (root)
screenshots: test-deps $(BIN)
	$(Q)FLOWTOP=$(BIN) screenshots/make.sh

BENCH_TOOLS := $(OUT)/bench/testrun_cost $(OUT)/bench/flood_send $(OUT)/bench/attach_filter $(OUT)/bench/empty.bpf.o $(OUT)/bench/tick \
	$(OUT)/bench/churn_send $(OUT)/bench/jit_lines

# every benchmark, written to bench/RESULTS.md (root; never part of check)
bench:
	$(Q).ci/deps.sh bench
	$(Q)$(MAKE) --no-print-directory $(BIN) $(BENCH_TOOLS)
	$(Q)OUT=$(OUT) FLOWTOP=$(BIN) bench/run.sh

$(OUT)/bench:
	$(Q)mkdir -p $@

$(OUT)/bench/%.bpf.o: bench/%.bpf.c | $(OUT)/bench
	$(call say,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/bench/%: bench/%.c $(OUT)/libflowtop.a | $(OUT)/bench
	$(call say,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $< $(OUT)/libflowtop.a $(ALL_LDFLAGS) $(PKG_LIBS) -lm -lpthread -o $@

BINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man/man8
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions

# installs the binary and the man page; warns when another flowtop (netsniff-ng's,
# conntrack based) is on PATH too, since PATH order then decides which one runs
install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/flowtop
	install -D -m 0644 man/flowtop.8 $(DESTDIR)$(MANDIR)/flowtop.8
	install -D -m 0644 contrib/flowtop.bash $(DESTDIR)$(COMPLETIONDIR)/flowtop
	$(Q)IFS=:; for d in $$PATH; do \
		f=$$d/flowtop; [ -x "$$f" ] && [ "$$f" != "$(DESTDIR)$(BINDIR)/flowtop" ] || continue; \
		"$$f" --version 2>/dev/null | grep -q 'eBPF per-IP' && continue; \
		echo "note: $$f is another program named flowtop (netsniff-ng's?); PATH order"; \
		echo "      decides which one runs: 'flowtop --version' tells them apart"; \
	done; true

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/flowtop $(DESTDIR)$(MANDIR)/flowtop.8 \
		$(DESTDIR)$(COMPLETIONDIR)/flowtop

# a Debian binary package from the tree's files (those git knows or would add), built
# apart in $(OUT)/deb with dpkg-buildpackage; lintian then, its errors and warnings
# failing the build; the .deb lands in $(OUT)/deb/
DEB_VERSION = $(shell dpkg-parsechangelog -S Version 2>/dev/null)
deb:
	$(Q).ci/deps.sh deb
	$(Q)rm -rf $(OUT)/deb && mkdir -p $(OUT)/deb/flowtop-$(DEB_VERSION)
	$(Q)git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t $(OUT)/deb/flowtop-$(DEB_VERSION)
	$(Q)cd $(OUT)/deb/flowtop-$(DEB_VERSION) && \
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SAN -u WERROR -u OUT -u BIN \
		dpkg-buildpackage -us -uc -b
	$(Q)lintian --fail-on error,warning $(OUT)/deb/flowtop_$(DEB_VERSION)_*.deb
	@ls $(OUT)/deb/*.deb

# the man page is clean for mandoc's linter and for man-db
lint-man:
	$(Q)mandoc -Tlint -Wstyle man/flowtop.8
	$(Q)! man --warnings -l man/flowtop.8 2>&1 >/dev/null | grep .

# libFuzzer targets for every parser of user input: options, filter, sort column,
# capture files
$(OUT)/fuzz/%: tests/fuzz/%.c $(FUZZ_SRCS) $(wildcard bpf/*.h src/*/*.h) | $(OUT)/fuzz
	$(call say,FUZZ,$@)
	$(Q)$(CLANG) -std=gnu11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
		$(addprefix -I,$(LAYERS)) $< $(FUZZ_SRCS) -lm -lpcap -lloc -lpthread -o $@

# each target for FUZZ_SECONDS (make check runs them for a few seconds each)
fuzz: $(FUZZ_TARGETS)
	$(Q)for t in $(FUZZ_TARGETS); do \
		n=$$(basename $$t); mkdir -p $(OUT)/fuzz/corpus-$$n; \
		$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			$(OUT)/fuzz/corpus-$$n tests/fuzz/corpus/$$n || exit 1; \
	done

# the soak test at full length: 60 s of flood, 2,000 interface switches (root)
soak: test-deps
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)SOAK_SECONDS=60 SOAK_MILLIONS=10 SOAK_SWITCHES=2000 SOAK_PPS=0 FLOWTOP=$(BIN) TESTBIN=$(OUT)/tests \
		FLOWTOP_ROOT=$(CURDIR) bash tests/e2e/e2e_soak.sh

# the corpus's expected counts, decided again by tshark (apt-get install tshark); the
# tests only read them
corpus-expect:
	$(Q)cd tests/corpus/pcap && ../expected.py --mode replay *.pcap

check-format:
	$(Q)$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_SRCS)

format:
	$(Q)$(CLANG_FORMAT) -i $(FORMAT_SRCS)

clean:
	rm -rf .output .output-san flowtop

-include $(wildcard $(addsuffix /*.d,$(addprefix $(OUT)/,$(CODE_DIRS))) $(OUT)/tests/*.d $(OUT)/bench/*.d)
