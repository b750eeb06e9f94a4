/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_spread preview tests: checks that count failures and say where, in
 * KTAP: each case (CHECK_CASE()) is a test, its failed checks "# " lines
 * before its result.
 */
#ifndef _IRQ_SPREAD_TOOL_CHECK_H
#define _IRQ_SPREAD_TOOL_CHECK_H

#include <stdio.h>

static unsigned int check_failed, check_run, check_cases;

#define CHECK(cond, fmt, ...)						\
	do {								\
		check_run++;						\
		if (!(cond)) {						\
			check_failed++;					\
			printf("# %s:%d: " fmt "\n", __FILE__,		\
				__LINE__, ##__VA_ARGS__);		\
		}							\
	} while (0)

static inline void check_uint(const char *file, int line, const char *expr,
			      unsigned int got, unsigned int want)
{
	check_run++;
	if (got == want)
		return;
	check_failed++;
	printf("# %s:%d: %s is %u, expected %u\n", file, line, expr, got,
	       want);
}

static inline void check_near(const char *file, int line, const char *expr,
			      double got, double want)
{
	check_run++;
	if (got - want < 0.000000001 && want - got < 0.000000001)
		return;
	check_failed++;
	printf("# %s:%d: %s is %.6f, expected %.6f\n", file, line, expr, got,
	       want);
}

#define CHECK_UINT(got, want)	check_uint(__FILE__, __LINE__, #got, got, want)
#define CHECK_NEAR(got, want)	check_near(__FILE__, __LINE__, #got, got, want)

/* Run one case: a KTAP result line for it. */
static inline void check_case(const char *name, void (*fn)(void))
{
	unsigned int failed = check_failed, run = check_run;

	if (!check_cases++)
		printf("KTAP version 1\n");
	fn();
	printf("%sok %u %s (%u checks)\n", check_failed == failed ? "" : "not ",
	       check_cases, name, check_run - run);
}

#define CHECK_CASE(fn)	check_case(#fn, fn)

/* The KTAP plan, last; the exit code of a test program. */
static inline int check_done(const char *name)
{
	printf("1..%u\n# %s: %u checks, %u failed\n", check_cases, name,
	       check_run, check_failed);
	return check_failed ? 1 : 0;
}

#endif /* _IRQ_SPREAD_TOOL_CHECK_H */
