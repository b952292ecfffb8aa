#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A third party's program against an installed libsluice: "make install"
# into a scratch root, then "pkg-config --cflags --libs --static sluice"
# (the root as pkg-config's sysroot) compiles and links a program that
# uses the headers' version macros, the library's version, and functions
# that need each private dependency: json-c (a topology written), libnl
# (an rtnetlink socket), GLPK (a throughput LP), libxml2 (GraphML read).  It must print what the
# headers and the library say, and the LP's theta for a ring of four.
#
# Run by run-ktap without its wrapper: valgrind would trace the compiler.

set -u
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/ktap.sh"

ktap_plan 3

out=$(make --no-print-directory -C "$here" install DESTDIR="$tmp/root" \
	PREFIX=/usr TC_LIB_DIR=/usr/lib/tc 2>&1)
result $? install "make install failed: $(echo "$out" | tail -n 3)"

export PKG_CONFIG_PATH="$tmp/root/usr/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$tmp/root"
want=$(sed -n 's/^#define SLUICE_VERSION[[:space:]]*"\(.*\)"/\1/p' \
	"$here/lib/sluice/version.h")
got=$(pkg-config --modversion sluice 2>&1)
[ "$got" = "$want" ]
result $? modversion "pkg-config --modversion sluice: '$got', not '$want'"

cat > "$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include <sluice/fabric_nl.h>
#include <sluice/flow.h>
#include <sluice/graph.h>
#include <sluice/interop.h>
#include <sluice/rate.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include <sluice/version.h>

#if SLUICE_VERSION_CODE < SLUICE_VERSION_AT(0, 1, 0)
#error "libsluice too old"
#endif

int main(void)
{
	struct sluice_route_opts ro = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_compute_opts co = { 0 };
	struct sluice_traffic_spec ts = { .kind = SLUICE_TRAFFIC_ALL2ALL };
	struct sluice_flow_opts fo = { .method = SLUICE_FLOW_LP };
	struct sluice_flow_result res;
	struct sluice_routes r = { 0 };
	struct sluice_traffic t;
	static const char graphml[] =
		"<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">"
		"<graph edgedefault=\"undirected\"><node id=\"a\"/></graph></graphml>";
	struct sluice_graph g, one;
	struct sluice_rtnl *nl;
	char err[256];
	__u64 bps;
	FILE *null = fopen("/dev/null", "w");

	if (sluice_parse_rate("10mbit", &bps) || bps != 10000000 ||
	    sluice_topo_ring(&g, 4, 1, err, sizeof(err)) ||
	    !null || sluice_graph_write(&g, null, err, sizeof(err)) ||
	    sluice_routes_compute(&g, &ro, &co, &r, err, sizeof(err)) ||
	    sluice_traffic_make(&g, &ts, &t, err, sizeof(err)) ||
	    sluice_flow_theta(&g, &r, &t, &fo, &res, err, sizeof(err)) ||
	    sluice_rtnl_open(&nl, err, sizeof(err)) ||
	    sluice_topo_import_buf(&one, SLUICE_TOPO_GRAPHML, graphml,
				   sizeof(graphml) - 1, NULL, err, sizeof(err))) {
		fprintf(stderr, "prog: %s\n", err);
		return 1;
	}
	sluice_rtnl_close(nl);
	printf("headers %s library %s theta %.4f\n", SLUICE_VERSION,
	       sluice_version(), res.theta);
	return strcmp(SLUICE_VERSION, sluice_version()) != 0;
}
PROG
out=$( { ${CC:-cc} -Wall -Werror -o "$tmp/prog" "$tmp/prog.c" \
	$(pkg-config --cflags sluice) $(pkg-config --libs --static sluice) &&
	"$tmp/prog"; } 2>&1)
rc=$?
expect="headers $want library $want theta"
case $out in
"$expect"*) ;;
*) rc=1 ;;
esac
echo "$out" | sed 's/^/# /'
result $rc link_and_run "$out"

ktap_exit
