// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl headroom --rate RATE --cable METRES --mtu BYTES
 *                    [--response QUANTA] [-j | --json]
 *
 * The PFC headroom of a port per lossless priority, eq. (1) of Tagger
 * (lib/headroom.c), with its terms: what to give "headroom" of the qdisc.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <json.h>
#include <linux/sluice.h>
#include <sluice/headroom.h>
#include <sluice/rate.h>
#include <sluice/size.h>
#include "jout.h"
#include "sluicectl.h"
#include "../lib/parse.h"

/* Longer cables than this are not one link of a data centre. */
#define CABLE_MAX_M	SLUICE_CABLE_MAX_M

/* Room for a number of bits with its billionths, "18446744073709551615.5". */
#define BITS_STRLEN	32

struct args {
	struct sluice_headroom	h;
	bool			json;
	/* The word that set each option, to refuse a second one. */
	const char		*rate, *cable, *mtu, *response;
};

static void print_help(const struct command *cmd)
{
	printf("Usage: sluicectl %s %s\n"
	       "\n"
	       "The PFC headroom a port needs per lossless priority: what it must still\n"
	       "take in after deciding to pause its upstream neighbour.  Eq. (1) of Tagger:\n"
	       "\n"
	       "  b_hr = 2 * (s_MTU + s_PFC + r * t_wire) + r * t_pro\n"
	       "\n"
	       "r is the link's RATE, as tc writes it (100mbit, 10gbit); s_MTU the largest\n"
	       "frame in BYTES; s_PFC = %u bytes; t_wire = %u ns per metre of cable; t_pro\n"
	       "the neighbour's response in pause QUANTA of %u bits (default %u, the limit\n"
	       "of IEEE 802.1Qbb).  The result is rounded up to whole bytes.\n",
	       cmd->name, cmd->usage, SLUICE_PFC_FRAME_BYTES,
	       SLUICE_CABLE_NS_PER_M, SLUICE_QUANTUM_BITS,
	       SLUICE_PFC_RESPONSE_QUANTA);
}

/* A whole word of decimal digits, at most @max. */
static int parse_uint(const char *word, unsigned long max, __u32 *val)
{
	unsigned long n;
	char *end;

	if (parse_decimal(word, &end, &n) || *end || n > max)
		return -EINVAL;
	*val = n;
	return 0;
}

static int set_rate(const struct command *cmd, struct args *a,
		    const char *word)
{
	switch (sluice_parse_rate(word, &a->h.rate)) {
	case 0:
		if (a->h.rate)
			return 0;
		break;
	case -EDOM:
		return usage_error(cmd,
				   "\"--rate\" must be a whole number of bits/s, not \"%s\"",
				   word);
	case -ERANGE:
		return usage_error(cmd,
				   "\"--rate\" must be at most %llubit, not \"%s\"",
				   (unsigned long long)UINT64_MAX, word);
	}
	return usage_error(cmd,
			   "\"--rate\" must be a rate above 0 such as 100mbit or 40gbit, not \"%s\"",
			   word);
}

static int set_option(const struct command *cmd, struct args *a,
		      const char *name, const char *word)
{
	if (!strcmp(name, "--rate"))
		return set_rate(cmd, a, word);
	if (!strcmp(name, "--cable")) {
		if (parse_uint(word, CABLE_MAX_M, &a->h.cable_m))
			return usage_error(cmd,
					   "\"--cable\" must be 0..%u metres, not \"%s\"",
					   CABLE_MAX_M, word);
		return 0;
	}
	if (!strcmp(name, "--mtu")) {
		if (sluice_parse_size(word, &a->h.mtu) || !a->h.mtu ||
		    a->h.mtu > TC_SLUICE_MAX_LIMIT)
			return usage_error(cmd,
					   "\"--mtu\" must be 1..%u bytes, not \"%s\"",
					   TC_SLUICE_MAX_LIMIT, word);
		return 0;
	}
	if (parse_uint(word, 0xffff, &a->h.response))
		return usage_error(cmd,
				   "\"--response\" must be 0..65535 quanta, not \"%s\"",
				   word);
	return 0;
}

/* Where the word that sets option @name is kept, or NULL if it is none. */
static const char **option_slot(struct args *a, const char *name)
{
	if (!strcmp(name, "--rate"))
		return &a->rate;
	if (!strcmp(name, "--cable"))
		return &a->cable;
	if (!strcmp(name, "--mtu"))
		return &a->mtu;
	if (!strcmp(name, "--response"))
		return &a->response;
	return NULL;
}

/*
 * "--opt VALUE" or "--opt=VALUE", options exactly as spelt (no
 * abbreviations), in any order.  Returns -1 if all went well, else the
 * exit code.
 */
static int parse_args(const struct command *cmd, struct args *a, int argc,
		      char **argv)
{
	char name[16];
	const char **slot, *value;
	const char *eq;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			a->json = true;
			continue;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			print_help(cmd);
			return 0;
		}
		eq = strchr(argv[i], '=');
		snprintf(name, sizeof(name), "%.*s",
			 eq ? (int)(eq - argv[i]) : (int)strlen(argv[i]),
			 argv[i]);
		slot = strncmp(argv[i], "--", 2) ? NULL : option_slot(a, name);
		if (!slot) {
			if (argv[i][0] == '-')
				return usage_error(cmd, "unknown option \"%s\"",
						   argv[i]);
			return usage_error(cmd, "unexpected argument \"%s\"",
					   argv[i]);
		}
		if (*slot)
			return usage_error(cmd, "duplicate option \"%s\"", name);
		if (eq) {
			value = eq + 1;
		} else if (i + 1 < argc) {
			value = argv[++i];
		} else {
			return usage_error(cmd, "missing value after \"%s\"",
					   name);
		}
		*slot = value;
		ret = set_option(cmd, a, name, value);
		if (ret)
			return ret;
	}
	if (!a->rate)
		return usage_error(cmd, "missing option \"--rate\"");
	if (!a->cable)
		return usage_error(cmd, "missing option \"--cable\"");
	if (!a->mtu)
		return usage_error(cmd, "missing option \"--mtu\"");
	return -1;
}

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
	struct args a = {
		.h.response = SLUICE_PFC_RESPONSE_QUANTA,
	};
	int ret;

	ret = parse_args(cmd, &a, argc, argv);
	if (ret >= 0)
		return ret;
	/* Cannot fail: --cable and --mtu bound it far below 2^64. */
	if (sluice_headroom_bytes(&a.h)) {
		fputs("sluicectl: headroom too large\n", stderr);
		return EXIT_RUNTIME;
	}
	if (a.json)
		return print_json(&a.h);
	print_text(&a.h);
	return 0;
}
