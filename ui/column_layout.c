// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* column_layout.c: the screen's side of the column table. */
#include "column_layout.h"

/* clang-format off */
const struct column_layout column_layout[COL__COUNT] = {
	/*                title        width keep */
	[COL_ADDR]     = { "ADDRESS",   24,  100 },
	[COL_RX2]      = { "RX 2s",     8,   90 },
	[COL_TX2]      = { "TX 2s",     8,   89 },
	[COL_RX10]     = { "RX 10s",    8,   60 },
	[COL_TX10]     = { "TX 10s",    8,   59 },
	[COL_RX40]     = { "RX 40s",    8,   50 },
	[COL_TX40]     = { "TX 40s",    8,   49 },
	[COL_PEAK]     = { "PEAK",      8,   40 },
	[COL_RX_PKTS]  = { "RX PKTS",   10,  80 },
	[COL_RX_BYTES] = { "RX BYTES",  10,  85 },
	[COL_TX_PKTS]  = { "TX PKTS",   10,  79 },
	[COL_TX_BYTES] = { "TX BYTES",  10,  84 },
	[COL_IFACE]    = { "IFACE",     14,  20 },
	[COL_HOSTS]    = { "HOSTS",     6,   95 },
	[COL_AS]       = { "AS",        22,  55 }, /* asked for ('c'): before the 40 s */
	[COL_CC]       = { "CC",        8,   56 }, /* windows, peak, share and sparkline */
	[COL_PORTS]    = { "PORTS",     18,  57 }, /* a peer's: before them too */
	[COL_SHARE]    = { "SHARE",     12,  30 },
	[COL_HISTORY]  = { "LAST 40s",  20,  10 },
};
/* clang-format on */
