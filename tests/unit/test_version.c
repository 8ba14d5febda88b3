// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* dkms.conf and the modules must name the same version. */
#include "unit.h"
#include <stdlib.h>
#include <ordma/version.h>

TEST(dkms_conf_version_matches_modules)
{
	char line[256], want[256];
	FILE *f = fopen(SRCDIR "/dkms.conf", "r");
	int found = 0;

	CHECK(f != NULL);
	if (!f)
		return;
	snprintf(want, sizeof(want), "PACKAGE_VERSION=\"%s\"\n", ORDMA_VERSION);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "PACKAGE_VERSION=", 16))
			found = !strcmp(line, want);
	fclose(f);
	CHECK(found);
}
