// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "unit.h"

static struct unit_test *tests;

void unit_register(struct unit_test *t)
{
	struct unit_test **p = &tests;

	while (*p && strcmp((*p)->name, t->name) < 0)
		p = &(*p)->next;
	t->next = *p;
	*p = t;
}

int main(void)
{
	int passed = 0, failed = 0;

	for (struct unit_test *t = tests; t; t = t->next) {
		int f = 0;

		t->fn(&f);
		printf("%s %s\n", f ? "FAIL" : "ok  ", t->name);
		f ? failed++ : passed++;
	}
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
