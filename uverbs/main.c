// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_uverbs: the /dev/infiniband/uverbsN character devices through which
 * libibverbs reaches a device.  It is an ib_core client: ib_core calls
 * uverbs_add_device() for every RDMA device, and we create that device's
 * char device, numbered from the same major/minor range as in-tree
 * (231:192 for the first 32, a dynamic range after that), because udev
 * rules and container device policies in the field name that range.
 */
#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <uapi/rdma/ib_user_verbs.h>
#include <ordma/compat.h>
#include <ordma/ib_core.h>
#include <ordma/version.h>

#define UVERBS_MAJOR		231
#define UVERBS_BASE_MINOR	192
#define UVERBS_FIXED_MINORS	32
#define UVERBS_DYNAMIC_MINORS	32
#define UVERBS_MAX_DEVICES	(UVERBS_FIXED_MINORS + UVERBS_DYNAMIC_MINORS)
#define UVERBS_BASE_DEV		MKDEV(UVERBS_MAJOR, UVERBS_BASE_MINOR)

/* One per RDMA device: the char device and its sysfs node. */
struct uverbs_device {
	struct device dev;	/* class infiniband_verbs, "uverbsN" */
	struct cdev cdev;
	struct ib_device *ibdev;
	int devnum;
};

static dev_t dynamic_base;
static DEFINE_IDA(uverbs_ida);

static ssize_t uverbs_abi_version(char *buf)
{
	return sysfs_emit(buf, "%d\n", IB_USER_VERBS_ABI_VERSION);
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
static ssize_t abi_version_show(const struct class *class,
				const struct class_attribute *attr, char *buf)
#else
static ssize_t abi_version_show(struct class *class,
				struct class_attribute *attr, char *buf)
#endif
{
	return uverbs_abi_version(buf);
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

/* Per-device sysfs: which RDMA device this is, and the ABI it speaks. */
static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct uverbs_device *udev = container_of(dev, struct uverbs_device, dev);

	return sysfs_emit(buf, "%s\n", ib_device_name(udev->ibdev));
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t dev_abi_version_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return uverbs_abi_version(buf);
}
static struct device_attribute dev_attr_dev_abi_version =
	__ATTR(abi_version, 0444, dev_abi_version_show, NULL);

static struct attribute *uverbs_dev_attrs[] = {
	&dev_attr_ibdev.attr,
	&dev_attr_dev_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(uverbs_dev);

/*
 * Opening the char device needs the uverbs file and context machinery,
 * which comes with the control path; until then opens are refused.
 */
static int uverbs_open(struct inode *inode, struct file *filp)
{
	return -EOPNOTSUPP;
}

static const struct file_operations uverbs_fops = {
	.owner = THIS_MODULE,
	.open = uverbs_open,
	.llseek = no_llseek,
};

static void uverbs_device_release(struct device *dev)
{
	struct uverbs_device *udev = container_of(dev, struct uverbs_device, dev);

	ida_free(&uverbs_ida, udev->devnum);
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
	udev->devnum = ida_alloc_max(&uverbs_ida, UVERBS_MAX_DEVICES - 1,
				     GFP_KERNEL);
	if (udev->devnum < 0) {
		ret = udev->devnum;
		kfree(udev);
		return ret;
	}
	if (udev->devnum < UVERBS_FIXED_MINORS)
		base = UVERBS_BASE_DEV + udev->devnum;
	else
		base = dynamic_base + udev->devnum - UVERBS_FIXED_MINORS;

	udev->ibdev = ibdev;
	device_initialize(&udev->dev);
	udev->dev.class = &uverbs_class;
	udev->dev.parent = &ibdev->dev;
	udev->dev.groups = uverbs_dev_groups;
	udev->dev.devt = base;
	udev->dev.release = uverbs_device_release;
	ret = dev_set_name(&udev->dev, "uverbs%d", udev->devnum);
	if (ret)
		goto err_put;

	cdev_init(&udev->cdev, &uverbs_fops);
	udev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&udev->cdev, &udev->dev);
	if (ret)
		goto err_put;

	ib_set_client_data(ibdev, &uverbs_client, udev);
	return 0;

err_put:
	put_device(&udev->dev);	/* frees devnum and udev */
	return ret;
}

static void uverbs_remove_device(struct ib_device *ibdev, void *client_data)
{
	struct uverbs_device *udev = client_data;

	cdev_device_del(&udev->cdev, &udev->dev);
	put_device(&udev->dev);
}

static int uverbs_get_nl_info(struct ib_device *ibdev, void *client_data,
			      struct ib_client_nl_info *res)
{
	struct uverbs_device *udev = client_data;

	if (res->port != -1)
		return -EINVAL;	/* uverbs devices are per device, not port */
	res->abi = IB_USER_VERBS_ABI_VERSION;
	res->cdev = &udev->dev;
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

	ret = register_chrdev_region(UVERBS_BASE_DEV, UVERBS_FIXED_MINORS,
				     "infiniband_verbs");
	if (ret)
		return ret;
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
	return ret;
}

static void __exit uverbs_exit(void)
{
	ib_unregister_client(&uverbs_client);
	class_unregister(&uverbs_class);
	unregister_chrdev_region(dynamic_base, UVERBS_DYNAMIC_MINORS);
	unregister_chrdev_region(UVERBS_BASE_DEV, UVERBS_FIXED_MINORS);
	ida_destroy(&uverbs_ida);
}

module_init(uverbs_init);
module_exit(uverbs_exit);

MODULE_DESCRIPTION("RDMA userspace verbs access (out-of-tree)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(ORDMA_VERSION);
/* GET_CHARDEV for "uverbs" autoloads us, as in-tree. */
MODULE_ALIAS("rdma-client-uverbs");
