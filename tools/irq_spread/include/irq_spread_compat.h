/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel interfaces lib/irq_spread/{spread,topology,pool,policy}.c use,
 * for building those very files in user space (tools/irq_spread).  The
 * Makefile makes every <linux/...> and <kunit/...> header they, or the
 * library's headers, include a one-line file that includes this one.
 *
 * Single-threaded: a mutex is a flag that lockdep_assert_held() checks.
 * WARN_ON() calls irq_spread_compat_warn(), which aborts when
 * irq_spread_compat_warn_fatal is set (the fuzzers set it), so that every
 * kernel warning the engine could raise is a crash a fuzzer reports.  The
 * running system's topology (irq_spread_system) compiles against empty
 * masks and is never used: the tool builds its own topology of the machine
 * it reads.  <linux/errno.h> and <linux/limits.h> are the C library's (the
 * kernel's UAPI headers), which <errno.h> and <limits.h> include, and so
 * is <linux/types.h>, which <sys/stat.h> includes (the Makefile's
 * LIBC_UAPI).
 */
#ifndef _IRQ_SPREAD_COMPAT_H
#define _IRQ_SPREAD_COMPAT_H

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef unsigned int gfp_t;
typedef unsigned short umode_t;

/* The library itself, not its stand-ins for a kernel without it. */
#define CONFIG_IRQ_SPREAD	1

#define GFP_KERNEL	0u
#define __init
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noreturn	__attribute__((noreturn))
#define __always_unused	__attribute__((unused))
#define noinline	__attribute__((noinline))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_IF_KUNIT(sym)
#define core_initcall(fn) \
	static int (*const __initcall_##fn)(void) __attribute__((unused)) = fn

/* bits, minmax, math */
#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BIT(nr)			(1UL << (nr))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define BITS_TO_LONGS(nr)	DIV_ROUND_UP(nr, BITS_PER_LONG)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define min(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
			   _a < _b ? _a : _b; })
#define max(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
			   _a > _b ? _a : _b; })
#define max3(a, b, c)	max(max(a, b), c)
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define swap(a, b)	do { __typeof__(a) _t = (a); (a) = (b); (b) = _t; } while (0)

static inline size_t array_size(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline size_t array3_size(size_t a, size_t b, size_t c)
{
	return array_size(array_size(a, b), c);
}

static inline size_t size_add(size_t a, size_t b)
{
	size_t r;

	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

/* printk and bug */
void irq_spread_compat_warn(const char *file, int line, const char *cond);
extern bool irq_spread_compat_warn_fatal;
extern bool irq_spread_compat_quiet;

#define pr_warn(fmt, ...) do { \
	if (!irq_spread_compat_quiet) \
		fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__); \
} while (0)
#define pr_warn_once(fmt, ...) do { \
	static bool __warned; \
	if (!__warned) { \
		__warned = true; \
		pr_warn(fmt, ##__VA_ARGS__); \
	} \
} while (0)
#define pr_info(fmt, ...)	pr_warn(fmt, ##__VA_ARGS__)
#define pr_warn_ratelimited(fmt, ...)	pr_warn(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	pr_warn(fmt, ##__VA_ARGS__)
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define WARN_ON(cond) ({ \
	int __c = !!(cond); \
	if (__c) \
		irq_spread_compat_warn(__FILE__, __LINE__, #cond); \
	__c; \
})
#define WARN_ON_ONCE(cond)	WARN_ON(cond)

/* slab */
void *irq_spread_compat_alloc(size_t size, bool zero);
#define kmalloc(s, g)			irq_spread_compat_alloc(s, false)
#define kzalloc(s, g)			irq_spread_compat_alloc(s, true)
#define kzalloc_obj(p, ...)		((typeof(p) *)kzalloc(sizeof(p), 0))
#define kcalloc(n, s, g)		irq_spread_compat_alloc(array_size(n, s), true)
#define kvcalloc(n, s, g)		kcalloc(n, s, g)
#define kvzalloc_flex(p, fam, n, ...)	((typeof(p) *)kzalloc(size_add(sizeof(p), \
					 array_size(n, sizeof((p).fam[0]))), 0))
#define kmalloc_array(n, s, g)		irq_spread_compat_alloc(array_size(n, s), false)
#define kvmalloc_array(n, s, g)		kmalloc_array(n, s, g)
#define kfree(p)			free((void *)(p))
#define kvfree(p)			free((void *)(p))
char *kstrdup(const char *s, gfp_t gfp);

/* mutex and lockdep */
struct mutex {
	bool held;
};

#define __MUTEX_INITIALIZER(name)	{ .held = false }
#define DEFINE_MUTEX(name)		struct mutex name = __MUTEX_INITIALIZER(name)
#define mutex_init(m)			((m)->held = false)
#define mutex_destroy(m)		assert(!(m)->held)
#define mutex_lock(m)			do { assert(!(m)->held); (m)->held = true; } while (0)
#define mutex_unlock(m)			do { assert((m)->held); (m)->held = false; } while (0)
#define lockdep_assert_held(m)		assert((m)->held)

/* spinlock: the same flag */
typedef struct mutex spinlock_t;
#define spin_lock_init(l)		mutex_init(l)
#define spin_lock(l)			mutex_lock(l)
#define spin_unlock(l)			mutex_unlock(l)

/* sort: sort_r() is the C library's qsort_r(), without a swap function */
typedef int (*cmp_r_func_t)(const void *a, const void *b, const void *priv);

static inline void sort_r(void *base, size_t num, size_t size,
			  cmp_r_func_t cmp, void *swap, const void *priv)
{
	qsort_r(base, num, size, (int (*)(const void *, const void *, void *))cmp,
		(void *)priv);
}

/* list: what pools use */
struct list_head {
	struct list_head *next, *prev;
};

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)	struct list_head name = LIST_HEAD_INIT(name)
#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_for_each_entry(pos, head, member) \
	for (pos = list_entry((head)->next, __typeof__(*pos), member); \
	     &pos->member != (head); \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	new->prev = head->prev;
	new->next = head;
	head->prev->next = new;
	head->prev = new;
}

static inline void list_del(struct list_head *entry)
{
	entry->prev->next = entry->next;
	entry->next->prev = entry->prev;
}

/* bitmaps */
#define BITMAP_LAST_WORD_MASK(n)	(~0UL >> (-(n) & (BITS_PER_LONG - 1)))

static inline void __set_bit(unsigned int nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= BIT(nr % BITS_PER_LONG);
}

static inline void __clear_bit(unsigned int nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] &= ~BIT(nr % BITS_PER_LONG);
}

static inline bool test_bit(unsigned int nr, const unsigned long *addr)
{
	return addr[nr / BITS_PER_LONG] & BIT(nr % BITS_PER_LONG);
}

static inline bool __test_and_set_bit(unsigned int nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	__set_bit(nr, addr);
	return old;
}

unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t gfp);
void bitmap_free(const unsigned long *bitmap);
void bitmap_zero(unsigned long *dst, unsigned int nbits);
void bitmap_copy(unsigned long *dst, const unsigned long *src,
		 unsigned int nbits);
bool bitmap_and(unsigned long *dst, const unsigned long *a,
		const unsigned long *b, unsigned int nbits);
bool bitmap_andnot(unsigned long *dst, const unsigned long *a,
		   const unsigned long *b, unsigned int nbits);
void bitmap_or(unsigned long *dst, const unsigned long *a,
	       const unsigned long *b, unsigned int nbits);
void bitmap_complement(unsigned long *dst, const unsigned long *src,
		       unsigned int nbits);
bool bitmap_empty(const unsigned long *src, unsigned int nbits);
bool bitmap_equal(const unsigned long *a, const unsigned long *b,
		  unsigned int nbits);
bool bitmap_subset(const unsigned long *a, const unsigned long *b,
		   unsigned int nbits);
bool bitmap_intersects(const unsigned long *a, const unsigned long *b,
		       unsigned int nbits);
unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits);
unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset);

#define find_first_bit(addr, size)	find_next_bit(addr, size, 0)

/* The lowest set bit of @word, which has one. */
static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

/* The highest set bit below @size, or @size if none. */
static inline unsigned long find_last_bit(const unsigned long *addr,
					  unsigned long size)
{
	unsigned long w = BITS_TO_LONGS(size), word;

	while (w--) {
		word = addr[w];
		if (w == size / BITS_PER_LONG)
			word &= BITMAP_LAST_WORD_MASK(size);
		if (word)
			return w * BITS_PER_LONG + BITS_PER_LONG - 1 -
			       __builtin_clzl(word);
	}
	return size;
}

#define for_each_set_bit(bit, addr, size) \
	for ((bit) = find_next_bit((addr), (size), 0); (bit) < (size); \
	     (bit) = find_next_bit((addr), (size), (bit) + 1))
#define for_each_set_bit_from(bit, addr, size) \
	for ((bit) = find_next_bit((addr), (size), (bit)); (bit) < (size); \
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

/* cpumask: as wide as the machine's bitmaps, never sized by NR_CPUS */
struct cpumask {
	unsigned long bits[1];
};

typedef struct cpumask cpumask_t;

#define cpumask_bits(maskp)	((maskp)->bits)
#define to_cpumask(bitmap)	((struct cpumask *)(bitmap))
#define cpumask_size()		sizeof(struct cpumask)
#define nr_cpu_ids		1u
#define nr_node_ids		1u

/*
 * The running system, for topology.c's irq_spread_system alone: no CPU, no
 * node.  The tool never spreads on it.
 */
extern const struct cpumask irq_spread_compat_none;

enum hk_type {
	HK_TYPE_TICK,
	HK_TYPE_MANAGED_IRQ,
};

enum node_states {
	N_CPU,
};

#define cpu_online_mask			(&irq_spread_compat_none)
#define housekeeping_cpumask(type)	(&irq_spread_compat_none)
#define cpumask_of_node(node)		(&irq_spread_compat_none)
#define topology_sibling_cpumask(cpu)	(&irq_spread_compat_none)
#define node_state(node, state)		false
#define node_distance(from, to)		10
#define cpu_to_node(cpu)		(-1)
#define cpumask_of(cpu)			(&irq_spread_compat_none)

/* err */
#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE(ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE(ptr);
}

/* numa */
#define NUMA_NO_NODE	(-1)

/* strings */
__printf(3, 4) int scnprintf(char *buf, size_t size, const char *fmt, ...);
int __sysfs_match_string(const char * const *array, size_t n,
			 const char *str);
#define sysfs_match_string(a, s)	__sysfs_match_string(a, ARRAY_SIZE(a), s)

/* debugfs: pools have no debugfs file here */
struct dentry;

#define debugfs_remove(dentry)		((void)(dentry))

/* interrupt.h: a pool's placer, which no interrupt core calls here */
struct irq_affinity_placer {
	int (*cpu_offline)(struct irq_affinity_placer *placer, unsigned int irq,
			   unsigned int cpu, struct cpumask *mask);
};

#endif /* _IRQ_SPREAD_COMPAT_H */
