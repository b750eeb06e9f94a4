// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel functions irq_spread_compat.h declares, for the engine's
 * source files built in user space.
 */
#include <irq_spread_compat.h>

#include "pool.h"

bool irq_spread_compat_warn_fatal;
bool irq_spread_compat_quiet;
const struct cpumask irq_spread_compat_none;

/*
 * The rest of the library, which the tool does not build (pool.h): pools
 * set no interrupt here, have no debugfs file, no owner and serve no
 * device.
 */
int irq_spread_irq_place(unsigned int irq, const struct cpumask *mask)
{
	return 0;
}

int irq_spread_irq_placer(unsigned int irq, struct irq_affinity_placer *placer)
{
	return 0;
}

struct dentry *irq_spread_pool_debugfs(struct irq_spread_pool *pool)
{
	return NULL;
}

bool irq_spread_dev_on(const struct irq_spread_dev *sd,
		       const struct irq_spread_topology *topo)
{
	return false;
}

void irq_spread_dev_owner_state(struct irq_spread_dev *owner,
				enum irq_spread_policy *policy,
				unsigned long *exclude)
{
}

void irq_spread_links_serve(struct list_head *links, const unsigned long *mask)
{
}

void irq_spread_links_unserve(struct list_head *links)
{
}

void irq_spread_compat_warn(const char *file, int line, const char *cond)
{
	fprintf(stderr, "WARNING: %s:%d: %s\n", file, line, cond);
	if (irq_spread_compat_warn_fatal)
		abort();
}

void *irq_spread_compat_alloc(size_t size, bool zero)
{
	if (size == SIZE_MAX)
		return NULL;
	/* The kernel's allocators return ZERO_SIZE_PTR; any non-NULL will do. */
	return zero ? calloc(1, size ? size : 1) : malloc(size ? size : 1);
}

char *kstrdup(const char *s, gfp_t gfp)
{
	return s ? strdup(s) : NULL;
}

unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t gfp)
{
	return calloc(BITS_TO_LONGS(nbits) ? BITS_TO_LONGS(nbits) : 1,
		      sizeof(unsigned long));
}

void bitmap_free(const unsigned long *bitmap)
{
	free((void *)bitmap);
}

void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

void bitmap_copy(unsigned long *dst, const unsigned long *src,
		 unsigned int nbits)
{
	memcpy(dst, src, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

/* The kernel's bitmap ops leave bits past @nbits of the last word alone. */
static unsigned long last_mask(unsigned int i, unsigned int nbits)
{
	return i == nbits / BITS_PER_LONG ? BITMAP_LAST_WORD_MASK(nbits) : ~0UL;
}

bool bitmap_and(unsigned long *dst, const unsigned long *a,
		const unsigned long *b, unsigned int nbits)
{
	unsigned int i, n = BITS_TO_LONGS(nbits);
	unsigned long any = 0;

	for (i = 0; i < n; i++) {
		dst[i] = a[i] & b[i];
		any |= dst[i] & last_mask(i, nbits);
	}
	return any;
}

bool bitmap_andnot(unsigned long *dst, const unsigned long *a,
		   const unsigned long *b, unsigned int nbits)
{
	unsigned int i, n = BITS_TO_LONGS(nbits);
	unsigned long any = 0;

	for (i = 0; i < n; i++) {
		dst[i] = a[i] & ~b[i];
		any |= dst[i] & last_mask(i, nbits);
	}
	return any;
}

void bitmap_or(unsigned long *dst, const unsigned long *a,
	       const unsigned long *b, unsigned int nbits)
{
	unsigned int i, n = BITS_TO_LONGS(nbits);

	for (i = 0; i < n; i++)
		dst[i] = a[i] | b[i];
}

void bitmap_complement(unsigned long *dst, const unsigned long *src,
		       unsigned int nbits)
{
	unsigned int i, n = BITS_TO_LONGS(nbits);

	for (i = 0; i < n; i++)
		dst[i] = ~src[i];
}

bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	unsigned int i, n = BITS_TO_LONGS(nbits);

	for (i = 0; i < n; i++)
		if (src[i] & last_mask(i, nbits))
			return false;
	return true;
}

bool bitmap_equal(const unsigned long *a, const unsigned long *b,
		  unsigned int nbits)
{
	unsigned int i, n = BITS_TO_LONGS(nbits);

	for (i = 0; i < n; i++)
		if ((a[i] ^ b[i]) & last_mask(i, nbits))
			return false;
	return true;
}

bool bitmap_subset(const unsigned long *a, const unsigned long *b,
		   unsigned int nbits)
{
	unsigned int i, n = BITS_TO_LONGS(nbits);

	for (i = 0; i < n; i++)
		if (a[i] & ~b[i] & last_mask(i, nbits))
			return false;
	return true;
}

bool bitmap_intersects(const unsigned long *a, const unsigned long *b,
		       unsigned int nbits)
{
	unsigned int i, n = BITS_TO_LONGS(nbits);

	for (i = 0; i < n; i++)
		if (a[i] & b[i] & last_mask(i, nbits))
			return true;
	return false;
}

unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits)
{
	unsigned int i, n = BITS_TO_LONGS(nbits), w = 0;

	for (i = 0; i < n; i++)
		w += __builtin_popcountl(src[i] & last_mask(i, nbits));
	return w;
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset)
{
	unsigned long word;

	if (offset >= size)
		return size;
	word = addr[offset / BITS_PER_LONG] & (~0UL << (offset % BITS_PER_LONG));
	offset -= offset % BITS_PER_LONG;
	while (!word) {
		offset += BITS_PER_LONG;
		if (offset >= size)
			return size;
		word = addr[offset / BITS_PER_LONG];
	}
	offset += __builtin_ctzl(word);
	return offset < size ? offset : size;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)size - 1 : n;
}

/* sysfs_streq(): equal, but for one trailing newline on either side. */
static bool sysfs_streq(const char *s1, const char *s2)
{
	while (*s1 && *s1 == *s2) {
		s1++;
		s2++;
	}
	if (*s1 == *s2)
		return true;
	if (!*s1 && *s2 == '\n' && !s2[1])
		return true;
	if (*s1 == '\n' && !s1[1] && !*s2)
		return true;
	return false;
}

int __sysfs_match_string(const char * const *array, size_t n,
			 const char *str)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!array[i])
			break;
		if (sysfs_streq(array[i], str))
			return i;
	}
	return -EINVAL;
}
