// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_uverbs: the /dev/infiniband/uverbsN character devices through which
 * libibverbs reaches a device.  It is an ib_core client: ib_core calls
 * uverbs_add_device() for every RDMA device, and we create that device's
 * char device, numbered from the same major/minor range as in-tree
 * (231:192 for the first 32, a dynamic range after that), because udev
 * rules and container device policies in the field name that range.
 *
 * This file holds the module, the char devices and their file operations:
 * open() binds a struct ib_uverbs_file to the device, write() and ioctl()
 * run commands (cmd_write.c, ioctl.c), release() destroys what the file
 * created, and the client's remove() disassociates files still open.
 */
#include <linux/cdev.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <uapi/rdma/ib_user_verbs.h>
#include <ordma/compat.h>
#include <ordma/ib_core.h>
#include <ordma/version.h>
#include "uverbs.h"

#define UVERBS_MAJOR		231
#define UVERBS_BASE_MINOR	192
#define UVERBS_FIXED_MINORS	32
#define UVERBS_DYNAMIC_MINORS	32
#define UVERBS_MAX_DEVICES	(UVERBS_FIXED_MINORS + UVERBS_DYNAMIC_MINORS)
#define UVERBS_BASE_DEV		MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR)

static dev_t dynamic_base;
static DEFINE_IDA(uverbs_ida);

static ssize_t abi_version_show(ORDMA_CLASS_ATTR_CONST struct class *class,
				ORDMA_CLASS_ATTR_CONST struct class_attribute *attr,
				char *buf)
{
	/* The ABI of the command interface itself, not of any provider. */
	return sysfs_emit(buf, "%d\n", IB_USER_VERBS_ABI_VERSION);
}
static CLASS_ATTR_RO(abi_version);

static struct attribute *uverbs_class_attrs[] = {
	&class_attr_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(uverbs_class);

static char *uverbs_devnode(ORDMA_DEVNODE_DEV *dev, umode_t *mode)
{
	if (mode)
		*mode = 0666;
	return kasprintf(GFP_KERNEL, "infiniband/%s", dev_name(dev));
}

static struct class uverbs_class = {
	.name = "infiniband_verbs",
	.devnode = uverbs_devnode,
	.class_groups = uverbs_class_groups,
};

/*
 * Per-device sysfs: which RDMA device this is, and the ABI of its
 * userspace provider (libibverbs binds a provider only within the range it
 * declares, e.g. 1..2 for rxe).  Gone with the device: -ENODEV.
 */
static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct uverbs_device *udev = container_of(dev, struct uverbs_device, dev);
	struct ib_device *ibdev;
	ssize_t ret = -ENODEV;
	int srcu;

	srcu = srcu_read_lock(&udev->srcu);
	ibdev = srcu_dereference(udev->ibdev, &udev->srcu);
	if (ibdev)
		ret = sysfs_emit(buf, "%s\n", ib_device_name(ibdev));
	srcu_read_unlock(&udev->srcu, srcu);
	return ret;
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t dev_abi_version_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct uverbs_device *udev = container_of(dev, struct uverbs_device, dev);
	struct ib_device *ibdev;
	ssize_t ret = -ENODEV;
	int srcu;

	srcu = srcu_read_lock(&udev->srcu);
	ibdev = srcu_dereference(udev->ibdev, &udev->srcu);
	if (ibdev)
		ret = sysfs_emit(buf, "%u\n", ibdev->ops.uverbs_abi_ver);
	srcu_read_unlock(&udev->srcu, srcu);
	return ret;
}
static struct device_attribute dev_attr_dev_abi_version =
	__ATTR(abi_version, 0444, dev_abi_version_show, NULL);

static struct attribute *uverbs_dev_attrs[] = {
	&dev_attr_ibdev.attr,
	&dev_attr_dev_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(uverbs_dev);

/* The last reference to an open file is gone. */
void uverbs_release_file(struct kref *ref)
{
	struct ib_uverbs_file *ufile =
		container_of(ref, struct ib_uverbs_file, ref);
	struct uverbs_device *udev = ufile->udev;

	uverbs_ufile_fini(ufile);
	kfree(ufile);
	put_device(&udev->dev);
}

/*
 * A new file is bound to the device for its whole life, holding a
 * reference on our per-device structure (ib_core's client data for us);
 * once the device is gone, opens fail with -ENXIO.
 */
static int uverbs_open(struct inode *inode, struct file *filp)
{
	struct uverbs_device *udev =
		container_of(inode->i_cdev, struct uverbs_device, cdev);
	struct ib_uverbs_file *ufile;
	struct ib_device *ibdev;
	int srcu;

	ufile = kzalloc(sizeof(*ufile), GFP_KERNEL_ACCOUNT);
	if (!ufile)
		return -ENOMEM;
	uverbs_ufile_init(ufile);
	ufile->udev = udev;
	/* Every VMA of this file is in its inode's mapping (mmap.c). */
	ufile->mmap.mapping = filp->f_mapping;

	/*
	 * Joining the list under SRCU: disassociation, which waits for SRCU
	 * readers before walking the list, either finds this file or made
	 * this open fail.
	 */
	srcu = srcu_read_lock(&udev->srcu);
	ibdev = srcu_dereference(udev->ibdev, &udev->srcu);
	if (!ibdev) {
		srcu_read_unlock(&udev->srcu, srcu);
		uverbs_ufile_fini(ufile);
		kfree(ufile);
		return -ENXIO;
	}
	get_device(&udev->dev);
	mutex_lock(&udev->files_lock);
	list_add_tail(&ufile->list, &udev->files);
	mutex_unlock(&udev->files_lock);
	srcu_read_unlock(&udev->srcu, srcu);

	filp->private_data = ufile;
	return stream_open(inode, filp);
}

static int uverbs_close(struct inode *inode, struct file *filp)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	struct uverbs_device *udev = ufile->udev;

	/*
	 * Destroy first, then leave the list: disassociation waits for this
	 * teardown on any file it still finds there.
	 */
	uverbs_destroy_ufile_hw(ufile, UVERBS_REMOVE_CLOSE);
	mutex_lock(&udev->files_lock);
	list_del_init(&ufile->list);
	mutex_unlock(&udev->files_lock);
	kref_put(&ufile->ref, uverbs_release_file);
	return 0;
}

/* The driver maps what it exported to the ucontext (queues, doorbells). */
static int uverbs_driver_mmap(struct ib_ucontext *uctx,
			      struct vm_area_struct *vma)
{
	if (!uctx->device->ops.mmap)
		return -EOPNOTSUPP;
	return uctx->device->ops.mmap(uctx, vma);
}

static int uverbs_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct ib_uverbs_file *ufile = filp->private_data;
	struct uverbs_device *udev = ufile->udev;
	struct ib_ucontext *uctx;
	int srcu, ret;

	srcu = srcu_read_lock(&udev->srcu);
	if (!srcu_dereference(udev->ibdev, &udev->srcu)) {
		ret = -EIO;
	} else {
		/* Pairs with the release in the creation of the ucontext. */
		uctx = smp_load_acquire(&ufile->ucontext);
		ret = uctx ? uverbs_driver_mmap(uctx, vma) : -EINVAL;
	}
	srcu_read_unlock(&udev->srcu, srcu);
	return ret;
}

static const struct file_operations uverbs_fops = {
	.owner = THIS_MODULE,
	.open = uverbs_open,
	.release = uverbs_close,
	.write = uverbs_write,
	.unlocked_ioctl = uverbs_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = uverbs_mmap,
};

static void uverbs_device_release(struct device *dev)
{
	struct uverbs_device *udev = container_of(dev, struct uverbs_device, dev);

	cleanup_srcu_struct(&udev->srcu);
	mutex_destroy(&udev->files_lock);
	kfree(udev);
}

static struct ib_client uverbs_client;

static int uverbs_add_device(struct ib_device *ibdev)
{
	struct uverbs_device *udev;
	dev_t base;
	int ret;

	udev = kzalloc(sizeof(*udev), GFP_KERNEL);
	if (!udev)
		return -ENOMEM;
	ret = init_srcu_struct(&udev->srcu);
	if (ret) {
		kfree(udev);
		return ret;
	}
	mutex_init(&udev->files_lock);
	INIT_LIST_HEAD(&udev->files);
	RCU_INIT_POINTER(udev->ibdev, ibdev);

	/* From here on put_device() frees udev. */
	device_initialize(&udev->dev);
	udev->dev.class = &uverbs_class;
	/* As in-tree: a sibling of the ib_device (virtual for rxe). */
	udev->dev.parent = ibdev->dev.parent;
	udev->dev.groups = uverbs_dev_groups;
	udev->dev.release = uverbs_device_release;

	udev->devnum = ida_alloc_max(&uverbs_ida, UVERBS_MAX_DEVICES - 1,
				     GFP_KERNEL);
	if (udev->devnum < 0) {
		ret = udev->devnum;
		goto err_put;
	}
	if (udev->devnum < UVERBS_FIXED_MINORS)
		base = UVERBS_BASE_DEV + udev->devnum;
	else
		base = dynamic_base + udev->devnum - UVERBS_FIXED_MINORS;
	udev->dev.devt = base;
	ret = dev_set_name(&udev->dev, "uverbs%d", udev->devnum);
	if (ret)
		goto err_ida;

	cdev_init(&udev->cdev, &uverbs_fops);
	udev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&udev->cdev, &udev->dev);
	if (ret)
		goto err_ida;

	ib_set_client_data(ibdev, &uverbs_client, udev);
	return 0;

err_ida:
	ida_free(&uverbs_ida, udev->devnum);
err_put:
	put_device(&udev->dev);
	return ret;
}

/*
 * The device is going away while files may still be open: disassociate
 * them.  Commands in flight finish (SRCU), later ones fail with -EIO, every
 * object and ucontext is destroyed through the driver now, async event
 * files get IB_EVENT_DEVICE_FATAL.  The files themselves live on, detached,
 * until userspace closes them; nothing here waits for that.
 */
static void uverbs_remove_device(struct ib_device *ibdev, void *client_data)
{
	struct uverbs_device *udev = client_data;
	struct ib_uverbs_file *ufile;

	/* No new opens; the minor is free for a new device. */
	cdev_device_del(&udev->cdev, &udev->dev);
	ida_free(&uverbs_ida, udev->devnum);

	rcu_assign_pointer(udev->ibdev, NULL);
	synchronize_srcu(&udev->srcu);

	mutex_lock(&udev->files_lock);
	while (!list_empty(&udev->files)) {
		ufile = list_first_entry(&udev->files, struct ib_uverbs_file,
					 list);
		list_del_init(&ufile->list);
		kref_get(&ufile->ref);
		/* Teardown may release files (and take files_lock). */
		mutex_unlock(&udev->files_lock);
		uverbs_destroy_ufile_hw(ufile, UVERBS_REMOVE_DISASSOCIATE);
		kref_put(&ufile->ref, uverbs_release_file);
		mutex_lock(&udev->files_lock);
	}
	mutex_unlock(&udev->files_lock);

	put_device(&udev->dev);
}

static int uverbs_get_nl_info(struct ib_device *ibdev, void *client_data,
			      struct ib_client_nl_info *res)
{
	struct uverbs_device *udev = client_data;

	if (res->port != -1)
		return -EINVAL;	/* uverbs devices are per device, not port */
	res->abi = ibdev->ops.uverbs_abi_ver;
	res->cdev = &udev->dev;
	/* libibverbs picks the provider by this id before trying names */
	if (res->nl_msg && nla_put_u32(res->nl_msg,
				       RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID,
				       ibdev->ops.driver_id))
		return -EMSGSIZE;
	return 0;
}

static struct ib_client uverbs_client = {
	.name = "uverbs",
	.add = uverbs_add_device,
	.remove = uverbs_remove_device,
	.get_nl_info = uverbs_get_nl_info,
};

static int __init uverbs_init(void)
{
	int ret;

	ret = uverbs_uapi_init();
	if (ret)
		return ret;
	ret = register_chrdev_region(UVERBS_BASE_DEV, UVERBS_FIXED_MINORS,
				     "infiniband_verbs");
	if (ret)
		goto err_uapi;
	ret = alloc_chrdev_region(&dynamic_base, 0, UVERBS_DYNAMIC_MINORS,
				  "infiniband_verbs");
	if (ret)
		goto err_fixed;
	ret = class_register(&uverbs_class);
	if (ret)
		goto err_dynamic;
	ret = ib_register_client(&uverbs_client);
	if (ret)
		goto err_class;
	pr_info("ib_uverbs: out-of-tree verbs %s loaded, ABI %d\n",
		ORDMA_VERSION, IB_USER_VERBS_ABI_VERSION);
	return 0;

err_class:
	class_unregister(&uverbs_class);
err_dynamic:
	unregister_chrdev_region(dynamic_base, UVERBS_DYNAMIC_MINORS);
err_fixed:
	unregister_chrdev_region(UVERBS_BASE_DEV, UVERBS_FIXED_MINORS);
err_uapi:
	uverbs_uapi_exit();
	return ret;
}

static void __exit uverbs_exit(void)
{
	ib_unregister_client(&uverbs_client);
	class_unregister(&uverbs_class);
	unregister_chrdev_region(dynamic_base, UVERBS_DYNAMIC_MINORS);
	unregister_chrdev_region(UVERBS_BASE_DEV, UVERBS_FIXED_MINORS);
	ida_destroy(&uverbs_ida);
	uverbs_uapi_exit();
}

module_init(uverbs_init);
module_exit(uverbs_exit);

MODULE_DESCRIPTION("RDMA userspace verbs access (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
/* GET_CHARDEV for "uverbs" autoloads us, as in-tree. */
MODULE_ALIAS("rdma-client-uverbs");
