// SPDX-License-Identifier: GPL-2.0
/*
 * sch_sluice: lossless Ethernet for Linux software switches.
 *
 * Module entry: the per-namespace switch table, the pause frame handler,
 * the "sluice" generic netlink family and the "sluice" qdisc.  Debian's
 * kernel autoloads a qdisc module by the name sch_<kind>, hence the
 * module's name.
 */
#include <linux/module.h>
#include <net/pkt_sched.h>

#include "sluice.h"

/*
 * The switch table first, the qdisc last: a qdisc needs all the others,
 * and its ports notify through the family.  The netdevice notifier comes
 * after the family, whose events it sends.  Exit goes in reverse, so no
 * port comes or goes, and no notifier call sends an event, once the family
 * is gone.
 */
static int __init sluice_module_init(void)
{
	int err;

	err = sluice_switch_init();
	if (err)
		return err;
	err = sluice_pause_init();
	if (err)
		goto err_switch;
	err = sluice_portfc_init();
	if (err)
		goto err_pause;
	err = sluice_genl_init();
	if (err)
		goto err_portfc;
	err = sluice_switch_notifier_init();
	if (err)
		goto err_genl;
	err = register_qdisc(&sluice_qdisc_ops);
	if (err)
		goto err_notifier;
	return 0;

err_notifier:
	sluice_switch_notifier_exit();
err_genl:
	sluice_genl_exit();
err_portfc:
	sluice_portfc_exit();
err_pause:
	sluice_pause_exit();
err_switch:
	sluice_switch_exit();
	return err;
}

static void __exit sluice_module_exit(void)
{
	unregister_qdisc(&sluice_qdisc_ops);
	sluice_switch_notifier_exit();
	sluice_dcb_exit();
	sluice_genl_exit();
	sluice_portfc_exit();
	sluice_pause_exit();
	sluice_switch_exit();
}

module_init(sluice_module_init);
module_exit(sluice_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("sluice: classful qdisc for lossless Ethernet (PFC) on software switches");
MODULE_AUTHOR("The sluice authors");
