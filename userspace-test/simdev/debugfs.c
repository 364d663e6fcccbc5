// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_sim: debugfs, under /sys/kernel/debug/xrc_sim/.
 *
 *   live_qps        (r)  XRC target QPs the device holds
 *   live_xrcds      (r)  XRC domains the device holds
 *   live_ucontexts  (r)  user contexts (uverbs files after GET_CONTEXT)
 *   irq_events      (r)  events inject_event raised, each from hard irq
 *   max_qps         (rw) QP capacity: create_qp fails with -ENOMEM while
 *                        live_qps is at it, as on a full device
 *   inject_event    (w)  "<qpn> <ib_event_type>": raise that QP event
 *                        from hard irq context (see event.c) and wait
 *                        for it; -ENOENT for an unknown QP number,
 *                        -EINVAL for a type that is not a QP event
 *   modify_qp_udata (rw) the udata the last modify_qp call got:
 *                          calls <modify_qp calls since load or clear>
 *                          udata present|null
 *                          inlen <bytes>
 *                          outlen <bytes>
 *                        any write clears it (calls 0, udata null)
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "xrc_sim.h"

static ssize_t xrc_sim_inject_event_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	struct xrc_sim_dev *sdev = file->private_data;
	char buf[32], *cur, *tok;
	u32 qpn, type;
	int err;

	if (*ppos != 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	cur = strim(buf);
	tok = strsep(&cur, " \t");
	if (!cur)
		return -EINVAL;
	err = kstrtou32(tok, 0, &qpn);
	if (err)
		return err;
	err = kstrtou32(skip_spaces(cur), 0, &type);
	if (err)
		return err;

	err = xrc_sim_inject_qp_event(sdev, qpn, type);
	if (err)
		return err;

	*ppos += count;
	return count;
}

static const struct file_operations xrc_sim_inject_event_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = xrc_sim_inject_event_write,
};

static int xrc_sim_modify_udata_show(struct seq_file *m, void *unused)
{
	struct xrc_sim_dev *sdev = m->private;
	u64 calls;
	bool null;
	size_t inlen, outlen;

	spin_lock(&sdev->udata_lock);
	calls = sdev->modify_udata.calls;
	null = sdev->modify_udata.null;
	inlen = sdev->modify_udata.inlen;
	outlen = sdev->modify_udata.outlen;
	spin_unlock(&sdev->udata_lock);

	seq_printf(m, "calls %llu\nudata %s\ninlen %zu\noutlen %zu\n",
		   calls, null ? "null" : "present", inlen, outlen);
	return 0;
}

static int xrc_sim_modify_udata_open(struct inode *inode, struct file *file)
{
	return single_open(file, xrc_sim_modify_udata_show, inode->i_private);
}

static ssize_t xrc_sim_modify_udata_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct xrc_sim_dev *sdev = m->private;

	spin_lock(&sdev->udata_lock);
	sdev->modify_udata.calls = 0;
	sdev->modify_udata.null = true;
	sdev->modify_udata.inlen = 0;
	sdev->modify_udata.outlen = 0;
	spin_unlock(&sdev->udata_lock);
	return count;
}

static const struct file_operations xrc_sim_modify_udata_fops = {
	.owner = THIS_MODULE,
	.open = xrc_sim_modify_udata_open,
	.read = seq_read,
	.write = xrc_sim_modify_udata_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void xrc_sim_debugfs_init(struct xrc_sim_dev *sdev)
{
	sdev->ddir = debugfs_create_dir("xrc_sim", NULL);

	debugfs_create_atomic_t("live_qps", 0444, sdev->ddir,
				&sdev->live_qps);
	debugfs_create_atomic_t("live_xrcds", 0444, sdev->ddir,
				&sdev->live_xrcds);
	debugfs_create_atomic_t("live_ucontexts", 0444, sdev->ddir,
				&sdev->live_ucontexts);
	debugfs_create_atomic_t("irq_events", 0444, sdev->ddir,
				&sdev->irq_events);
	debugfs_create_u32("max_qps", 0644, sdev->ddir, &sdev->max_qps);
	debugfs_create_file("inject_event", 0200, sdev->ddir, sdev,
			    &xrc_sim_inject_event_fops);
	debugfs_create_file("modify_qp_udata", 0600, sdev->ddir, sdev,
			    &xrc_sim_modify_udata_fops);
}

void xrc_sim_debugfs_exit(struct xrc_sim_dev *sdev)
{
	debugfs_remove(sdev->ddir);
}
