/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef ORDMA_VERSION_H
#define ORDMA_VERSION_H

/*
 * One version for the whole module set; dkms.conf's PACKAGE_VERSION must
 * say the same (tests/unit checks it).  The "-oot" suffix is what lets a
 * test tell our modules from the in-tree ones, which carry no version.
 */
#define ORDMA_VERSION "0.1.0-oot"

#endif
