// SPDX-License-Identifier: GPL-2.0
/*
 * sch_sluice: lossless Ethernet for Linux software switches.
 *
 * Module entry: registers the "sluice" qdisc.  Debian's kernel autoloads
 * a qdisc module by the name sch_<kind>, hence the module's name.
 */
#include <linux/module.h>
#include <net/pkt_sched.h>

#include "sluice.h"

static int __init sluice_module_init(void)
{
	return register_qdisc(&sluice_qdisc_ops);
}

static void __exit sluice_module_exit(void)
{
	unregister_qdisc(&sluice_qdisc_ops);
}

module_init(sluice_module_init);
module_exit(sluice_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("sluice: classful qdisc for lossless Ethernet (PFC) on software switches");
MODULE_AUTHOR("The sluice authors");
