/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* ui_state.h: the screen's state, private to ui/, and what reads and builds it
 * (state.c): the loop (ui.c) and the key and mouse actions (actions.c) share it. Those
 * return what they want done (keys.h's reactions) and the loop does it, as it does the
 * interface picker's choice (picker.h, which knows only its own struct picker): none
 * calls the loop. */
#ifndef FLOWTOP_UI_STATE_H
#define FLOWTOP_UI_STATE_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "capture.h"
#include "convo.h"
#include "dns.h"
#include "fmt.h"
#include "graph.h"
#include "lineedit.h"
#include "pcapfile.h"
#include "picker.h"
#include "playback.h"
#include "screen.h"
#include "screen_config.h"
#include "view.h"

struct run;

enum graph_mode {
	GRAPH_AUTO, /* on when the terminal is tall enough */
	GRAPH_ON,
	GRAPH_OFF
};

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_FILTER,
	PROMPT_DUMP,
	PROMPT_EXPR,
	PROMPT__COUNT
};

struct ui {
	struct capture *cap;
	const struct screen_config *cfg;	/* what the command line asked of the screen */
	struct exporter *exp;			/* --listen, or NULL */
	struct view main;			/* the hosts (of one group, once opened) */
	struct geo *geo;			/* the location database, or NULL */
	const char *geo_said;			/* why there is none, or "" */
	struct group_opts group;		/* the rows' grouping ('a'); GROUP_HOST: none */
	struct groups *groups;			/* the groups, made when first grouped */
	struct view group_view;			/* their rows */
	bool in_group;				/* Enter on a group: main shows its hosts */
	char group_title[GROUP_LABEL_LEN + 16]; /* "AS15169 GOOGLE" */
	struct convo *conv;		     /* the conversation view's counts, while it is open */
	struct view conv_view;		     /* its rows */
	double conv_opened;		     /* monotonic seconds */
	char conv_title[FMT_ADDR_LEN + 260]; /* the focus: address and name */
	double last_click;		     /* the last press on a row, for double clicks */
	size_t last_click_row;
	struct dns *dns;
	int dns_fd;
	char status[512];
	double status_until; /* monotonic seconds */
	enum prompt_kind prompt;
	struct lineedit edit;				/* the open prompt's line */
	struct lineedit_history history[PROMPT__COUNT]; /* each prompt's last values */
	bool help;
	int help_top;	      /* the help's first line shown */
	struct picker picker; /* the interface picker (picker.c) */
	double attached_at;
	struct capture_cost cost;	  /* the socket filter's over the last sample */
	struct graph graph, graph_paused; /* the header's graph, live and as paused */
	enum graph_mode graph_mode;
	bool mouse;
	bool iface_lost;
	bool quit;
	bool screen_on;	       /* between screen_init() and screen_end() */
	struct run *run;       /* the run the screen is a sink of */
	struct playback *play; /* -r on the screen (the run's), or NULL */
};

/* state.c: the view on screen, its rows, the status line */

/* The view on screen: the conversations when open, else the groups when grouped (and
 * none is open), else the hosts. */
struct view *ui_view(struct ui *u);
/* Whether the screen shows groups (not a group's hosts, not conversations). */
bool ui_grouped(const struct ui *u);
/* Makes the groups afresh (a sample closed, the grouping changed); false, said, when out
 * of memory. */
bool ui_build_groups(struct ui *u);
double ui_now(void); /* monotonic seconds */
/* A message on the status line for a few seconds. */
void ui_status(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The name of an address, for view_build() (arg: the ui). */
const char *ui_name_of(const struct flow_key *key, bool lookup, void *arg);
/* Builds the rows a screen needs (want 0; paused, those it keeps), or `want` (a dump). */
void ui_build(struct ui *u, size_t want);
/* The rows a screen needs, built again (filter, sort, names changed). */
void ui_rebuild(struct ui *u);
/* Builds the rows a paused view keeps (VIEW_PAUSED_ROWS at most), and says so when that
 * is fewer than the rows there are. */
void ui_freeze(struct ui *u);
/* After the selection moved: more rows when it went past those built. */
void ui_follow(struct ui *u);
/* Where the main view's hosts are (AS, country): every host's, or the rows built's. */
void ui_locate(struct ui *u, bool every_host);
bool ui_graph_on(const struct ui *u);
/* The file a dump goes to unless edited: -o, or flowtop-IFACE-DATE-TIME.txt. */
void ui_default_dump_name(struct ui *u, char *buf, size_t len);
/* Opens a prompt, old offered on its line (NULL: none). */
void ui_prompt(struct ui *u, enum prompt_kind kind, const char *old);
/* The main view's IFACE column and names, after an attach or a sample. */
void ui_follow_links(struct ui *u);
/* The filter expression the counts are of: live, the capture's; a file's, -r's. */
const char *ui_expression(struct ui *u);
/* The conversation view closes (its counts stop). */
void ui_close_conversations(struct ui *u);

#endif
