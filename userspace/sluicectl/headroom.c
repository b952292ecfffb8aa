// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl headroom --rate RATE --cable METRES --mtu BYTES
 *                    [--response QUANTA] [-j | --json]
 *
 * The PFC headroom of a port per lossless priority, eq. (1) of Tagger
 * (lib/headroom.c), with its terms: what to give "headroom" of the qdisc.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <json.h>
#include <linux/sluice.h>
#include <sluice/headroom.h>
#include <sluice/rate.h>
#include <sluice/size.h>
#include "args.h"
#include "jout.h"
#include "sluicectl.h"

/* Longer cables than this are not one link of a data centre. */
#define CABLE_MAX_M	SLUICE_CABLE_MAX_M

/* Room for a number of bits with its billionths, "18446744073709551615.5". */
#define BITS_STRLEN	32

#define STR_(x)	#x
#define STR(x)	STR_(x)

enum { OPT_RATE, OPT_CABLE, OPT_MTU, OPT_RESPONSE, OPT_JSON, N_OPTS };

static const struct arg_opt opts[] = {
	[OPT_RATE]	= ARG_R("--rate", "RATE", 1, UINT64_MAX,
				"the link's rate r, as tc writes it (100mbit, 10gbit)",
				.flags = ARG_REQUIRED),
	[OPT_CABLE]	= ARG_N("--cable", 0, "METRES", 0, CABLE_MAX_M,
				"the cable's length, for t_wire",
				.flags = ARG_REQUIRED),
	[OPT_MTU]	= ARG_Z("--mtu", "BYTES", 1, TC_SLUICE_MAX_LIMIT,
				"the largest frame s_MTU", .flags = ARG_REQUIRED),
	[OPT_RESPONSE]	= ARG_N("--response", 0, "QUANTA", 0, 0xffff,
				"the neighbour's response t_pro in pause quanta, default "
				STR(SLUICE_PFC_RESPONSE_QUANTA)),
	[OPT_JSON]	= ARG_F("--json", 'j', "print the result and its terms as JSON"),
};

static const struct args_spec spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 0,
	.more = "The headroom is what a port must still take in after deciding to pause\n"
		"its upstream neighbour.  Eq. (1) of Tagger:\n"
		"\n"
		"  b_hr = 2 * (s_MTU + s_PFC + r * t_wire) + r * t_pro\n"
		"\n"
		"s_PFC = " STR(SLUICE_PFC_FRAME_BYTES) " bytes; t_wire = "
		STR(SLUICE_CABLE_NS_PER_M) " ns per metre of cable; a pause quantum\n"
		"is " STR(SLUICE_QUANTUM_BITS) " bits (the default response, "
		STR(SLUICE_PFC_RESPONSE_QUANTA) " quanta, is the limit of IEEE\n"
		"802.1Qbb).  The result is rounded up to whole bytes.",
};

/* Whole bits and billionths as a decimal: "60000", "1.5", "0.005". */
static char *format_bits(__u64 bits, __u32 nbits, char *buf, size_t len)
{
	size_t n;

	if (!nbits) {
		snprintf(buf, len, "%llu", (unsigned long long)bits);
		return buf;
	}
	snprintf(buf, len, "%llu.%09u", (unsigned long long)bits, nbits);
	for (n = strlen(buf); buf[n - 1] == '0'; n--)
		buf[n - 1] = '\0';
	return buf;
}

static void print_text(const struct sluice_headroom *h)
{
	char rate[SLUICE_RATE_STRLEN], wire[BITS_STRLEN], total[BITS_STRLEN];

	format_bits(h->wire_bits, h->wire_nbits, wire, sizeof(wire));
	format_bits(h->total_bits, h->total_nbits, total, sizeof(total));
	printf("headroom %llu bytes\n"
	       "  b_hr = 2 * (s_MTU + s_PFC + r * t_wire) + r * t_pro   (Tagger, eq. 1)\n"
	       "       = 2 * (%llu + %u + %s) + %llu bits\n"
	       "       = %s bits\n"
	       "  s_MTU      %u bytes (--mtu)\n"
	       "  s_PFC      %u bytes, a PFC frame\n"
	       "  r          %s (--rate)\n"
	       "  t_wire     %llu ns: %u m (--cable) at %u ns/m\n"
	       "  r * t_pro  %llu bits: %u quanta (--response) of %u bits\n",
	       (unsigned long long)h->bytes, 8ull * h->mtu,
	       SLUICE_PFC_FRAME_BYTES * 8, wire,
	       (unsigned long long)h->response_bits, total, h->mtu,
	       SLUICE_PFC_FRAME_BYTES,
	       sluice_format_rate(h->rate, rate, sizeof(rate)),
	       (unsigned long long)h->wire_ns, h->cable_m, SLUICE_CABLE_NS_PER_M,
	       (unsigned long long)h->response_bits, h->response,
	       SLUICE_QUANTUM_BITS);
}

/* A number of bits, with a fraction only if it has one. */
static json_object *json_bits(__u64 bits, __u32 nbits)
{
	char buf[BITS_STRLEN];

	if (!nbits)
		return json_object_new_uint64(bits);
	format_bits(bits, nbits, buf, sizeof(buf));
	return json_object_new_double_s(bits + nbits / 1e9, buf);
}

static bool add(json_object *obj, const char *key, json_object *val)
{
	if (!val)
		return false;
	if (json_object_object_add(obj, key, val)) {
		json_object_put(val);
		return false;
	}
	return true;
}

static int print_json(const struct sluice_headroom *h)
{
	json_object *obj = json_object_new_object();
	bool ok;

	ok = obj &&
	     add(obj, "rate", json_object_new_uint64(h->rate)) &&
	     add(obj, "cable_m", json_object_new_uint64(h->cable_m)) &&
	     add(obj, "mtu", json_object_new_uint64(h->mtu)) &&
	     add(obj, "response_quanta", json_object_new_uint64(h->response)) &&
	     add(obj, "pfc_frame", json_object_new_uint64(SLUICE_PFC_FRAME_BYTES)) &&
	     add(obj, "wire_ns", json_object_new_uint64(h->wire_ns)) &&
	     add(obj, "wire_bits", json_bits(h->wire_bits, h->wire_nbits)) &&
	     add(obj, "response_bits", json_object_new_uint64(h->response_bits)) &&
	     add(obj, "headroom_bits", json_bits(h->total_bits, h->total_nbits)) &&
	     add(obj, "headroom_bytes", json_object_new_uint64(h->bytes));
	if (ok)
		puts(jtext(obj));
	else
		fputs("sluicectl: out of memory\n", stderr);
	json_object_put(obj);
	return ok ? 0 : EXIT_RUNTIME;
}

int headroom_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_headroom h = { 0 };
	ARGS_DECLARE(a, N_OPTS);

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit;
	h.rate = a.num[OPT_RATE];
	h.cable_m = a.num[OPT_CABLE];
	h.mtu = a.num[OPT_MTU];
	h.response = a.val[OPT_RESPONSE] ? a.num[OPT_RESPONSE] :
		     SLUICE_PFC_RESPONSE_QUANTA;
	/* Cannot fail: --cable and --mtu bound it far below 2^64. */
	if (sluice_headroom_bytes(&h)) {
		fputs("sluicectl: headroom too large\n", stderr);
		return EXIT_RUNTIME;
	}
	if (a.val[OPT_JSON])
		return print_json(&h);
	print_text(&h);
	return 0;
}
