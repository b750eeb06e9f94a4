#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpora of the irq_spread fuzzers, deterministically.

    make-corpus.py [DIR]     (default: the corpus/ directory next to this file)

corpus/engine/: machines like the seed machines (a 2-node Xeon with Intel
numbering, an EPYC-like 8-node part, a 4-vCPU VM, a 96-vCPU 2-node VM, a
2-node SMT4 machine, nodes without CPUs, asymmetric distances, offline,
isolated and nohz_full CPUs, CPUs of no node), each with a sequence of
devices, releases, leaving CPUs and pool operations, in the encoding
fuzz_engine.c decodes.  corpus/sysfs/: small sysfs-shaped trees, good and
bad, in the record encoding of fuzz_sysfs.c.  The file names are the
seeds' names; the files are rewritten, nothing else in DIR is touched.
"""

import os
import struct
import sys


# ---------------------------------------------------------------- engine --

class Engine:
    """One fuzz_engine input: a machine, then operations."""

    def __init__(self, nodes, smt, cores, interleave=False, sym=True,
                 at_random=False, any_dist=False, online_sibs=False,
                 split=False, strays=False, offline_sibs=False,
                 dist=None, used=None, off=0, l3div=1, offline=None,
                 isolated=None, nohz=None, core_nodes=None):
        self.nodes, self.smt, self.cores = nodes, smt, cores
        self.n = smt * cores
        b = bytearray()
        b += bytes([nodes - 1, smt - 1])
        b += struct.pack('<H', cores - 1)
        fl = (interleave << 0 | sym << 1 | at_random << 2 | any_dist << 3 |
              online_sibs << 4 | split << 5 | strays << 6 |
              offline_sibs << 7)
        b.append(fl)
        for i in range(nodes):
            for j in range(nodes):
                if i == j or (sym and j < i):
                    continue
                d = dist(i, j) if dist else 20
                b.append(d - 1 if any_dist else d - 10)
        b.append((used or nodes) - 1)
        b.append(off)
        b.append(l3div - 1)
        for m in (offline, isolated, nohz):
            b += self.mask(m)
        if at_random:
            b += bytes(core_nodes)
        self.b = b

    def mask(self, m):
        """None: empty; 'all'; 'null'; a list of CPUs; ('range', a, len);
        ('every', start, step)."""
        if m is None:
            return bytes([0])
        if m == 'null':
            return bytes([2])
        if m == 'all':
            return bytes([3])
        if isinstance(m, tuple) and m[0] == 'range':
            return bytes([6]) + struct.pack('<HH', m[1], m[2])
        if isinstance(m, tuple) and m[0] == 'every':
            return bytes([7, m[1], m[2] - 1])
        if len(m) <= 8:
            return bytes([4, len(m) - 1]) + b''.join(
                struct.pack('<H', c) for c in m)
        bits = bytearray((self.n + 7) // 8)
        for c in m:
            bits[c // 8] |= 1 << (c % 8)
        return bytes([8]) + bits

    def spread(self, node, nvec, policy, exclude=None, slot_only=False,
               flags=None, stride=0):
        """node: -1..nodes-1, or 'bad'; policy 0..2, or 3 for a bad one;
        nvec 0 for none; stride 0 (exact), 5 (+1), 7 (-1), 8 (no masks)."""
        self.b.append(0)
        self.b.append(0xe0 if node == 'bad' else node + 1)
        self.b += struct.pack('<H', ((nvec - 1) << 4 | 1) if nvec else 0)
        self.b.append(policy if policy < 3 else 240)
        self.b += self.mask(exclude)
        self.b.append(flags if flags is not None else 4 if slot_only else 0)
        self.b.append(stride)
        return self

    def release(self, i=0, hold=False):
        self.b += bytes([8 if hold else 7, i])
        return self

    def leaving(self, m):
        self.b.append(9)
        self.b += self.mask(m)
        return self

    def pool(self, node, policy, nr, max_users=0, first=0, bad=None):
        """node 'bad' for a bad one; policy 3 for a bad one; bad: 'name',
        'ops', 'first' (past INT_MAX) or None."""
        self.b.append(10)
        self.b.append(0 if bad == 'name' else 1)
        self.b.append(0xe0 if node == 'bad' else node + 1)
        self.b.append(policy if policy < 3 else 240)
        self.b.append(nr)
        self.b.append(max_users)
        self.b.append(239 if bad == 'first' else 200 if first == 'top'
                      else first)
        self.b.append(1 if bad == 'ops' else 2)
        return self

    def get(self, cpus=None, fail=False):
        """cpus None: any CPU; a list, 'all', ...: a mask."""
        self.b.append(11)
        self.b += bytes([2]) if cpus is None else self.mask(cpus)
        self.b.append(224 if fail else 0)
        return self

    def put(self, v, irq=False):
        """v: index in the pool, -1 for the one below it."""
        self.b += bytes([13, (v + 1) | (0x80 if irq else 0)])
        return self

    def put_raw(self, b):
        self.b += bytes([13, b])
        return self

    def destroy(self):
        self.b.append(15)
        return self

    def data(self):
        return bytes(self.b)


def xeon(**kw):
    """Xeon E5-2697 v3-like: 2 nodes, 14 cores each, SMT2, Intel numbering."""
    return Engine(2, 2, 28, interleave=True, dist=lambda i, j: 21, **kw)


def epyc(**kw):
    """EPYC-like: 8 nodes of 16 cores, SMT2, 4 nodes per socket."""
    return Engine(8, 2, 128, interleave=True,
                  dist=lambda i, j: 12 if i // 4 == j // 4 else 32, **kw)


def engine_seeds():
    s = {}
    e = Engine(1, 1, 4)
    s['mana-4vcpu'] = e.spread(0, 4, 1).spread(0, 8, 1).release(0) \
        .spread(-1, 3, 0).data()
    e = Engine(2, 2, 48, dist=lambda i, j: 20)
    s['vm96-2node'] = e.spread(0, 32, 1).spread(1, 96, 2).spread(-1, 288, 0) \
        .release(1).spread(1, 48, 1).data()
    e = xeon()
    s['xeon-numa'] = e.spread(0, 14, 0).spread(1, 56, 0).data()
    e = xeon()
    s['xeon-numa-core'] = e.spread(1, 14, 1).spread(1, 28, 1) \
        .spread(0, 57, 1).release(0, hold=True).data()
    e = xeon()
    s['xeon-core'] = e.spread(0, 28, 2).spread(0, 29, 2).spread(-1, 1, 2) \
        .data()
    e = xeon()
    s['xeon-slot-only'] = e.spread(0, 20, 1, slot_only=True) \
        .spread(0, 20, 1).data()
    e = epyc()
    s['epyc-32'] = e.spread(0, 32, 0).spread(0, 32, 1).spread(0, 32, 2).data()
    e = epyc()
    s['epyc-128'] = e.spread(5, 128, 1).spread(5, 128, 2).release(0) \
        .spread(3, 128, 1).data()
    e = epyc()
    s['epyc-768'] = e.spread(2, 768, 1).data()
    e = Engine(2, 4, 16, dist=lambda i, j: 30)
    s['smt4-2node'] = e.spread(0, 16, 1).spread(1, 20, 1).spread(0, 64, 2) \
        .spread(1, 5, 0).data()
    e = Engine(2, 4, 16, interleave=True, dist=lambda i, j: 30)
    s['smt4-interleaved'] = e.spread(1, 17, 1).spread(0, 33, 2).data()
    # Node 0 (the device's) holds memory only; asymmetric distances.
    e = Engine(4, 2, 12, sym=False, used=3, off=1,
               dist=lambda i, j: 10 + 7 * abs(i - j) + (i > j))
    s['memory-node'] = e.spread(0, 12, 0).spread(0, 12, 1).spread(0, 24, 2) \
        .data()
    e = Engine(4, 1, 16, any_dist=True, dist=lambda i, j: 10)
    s['equal-distances'] = e.spread(2, 8, 0).spread(3, 8, 1).data()
    e = Engine(3, 1, 9, any_dist=True, sym=False,
               dist=lambda i, j: [[10, 3, 250], [40, 10, 9], [1, 255, 10]][i][j])
    s['odd-distances'] = e.spread(0, 9, 0).spread(1, 9, 1).spread(2, 3, 2) \
        .data()
    e = Engine(2, 2, 16, dist=lambda i, j: 20, offline=[1, 2, 3, 17],
               isolated=[4, 5], nohz=('range', 8, 3), online_sibs=True)
    s['offline-isolated'] = e.spread(0, 32, 1).spread(1, 32, 2) \
        .spread(-1, 40, 0).data()
    e = Engine(2, 2, 8, dist=lambda i, j: 20, isolated='all')
    s['all-isolated'] = e.spread(0, 8, 1).spread(1, 3, 0).data()
    e = Engine(2, 2, 8, dist=lambda i, j: 20, offline='all')
    s['none-online'] = e.spread(0, 8, 1).pool(0, 0, 4).get().data()
    e = Engine(3, 2, 9, dist=lambda i, j: 20, strays=True)
    s['no-node-cpus'] = e.spread(0, 18, 0).spread(1, 18, 1).spread(2, 18, 2) \
        .data()
    e = Engine(2, 2, 8, dist=lambda i, j: 20, split=True)
    s['split-core'] = e.spread(0, 16, 1).spread(1, 16, 2).data()
    e = Engine(4, 2, 8, at_random=True, dist=lambda i, j: 10 + 5 * (i + j),
               core_nodes=[3, 3, 1, 0, 1, 3, 0, 1])
    s['random-cores'] = e.spread(2, 16, 1).spread(3, 7, 2).data()
    e = xeon()
    s['exclude'] = e.spread(0, 14, 1, exclude=('range', 0, 13)) \
        .spread(1, 14, 0, exclude='all').spread(1, 5, 2,
                                                exclude=('every', 0, 2)) \
        .data()
    e = xeon()
    s['leaving'] = e.leaving(('range', 0, 6)).spread(0, 28, 1) \
        .leaving('null').spread(0, 28, 1).data()
    e = Engine(2, 2, 4, dist=lambda i, j: 20)
    s['errors'] = e.spread('bad', 4, 0).spread(0, 0, 1).spread(0, 4, 3) \
        .spread(0, 4, 1, flags=6).spread(0, 4, 1, stride=7) \
        .spread(0, 4, 1, stride=8).spread(0, 4, 1, stride=6).data()
    e = Engine(1, 1, 65)
    s['wide-65'] = e.spread(0, 66, 0, stride=5).spread(-1, 130, 2).data()
    # Pools: two vectors, three users for any CPU: the least used, lowest
    # number first; requests and releases.
    e = Engine(2, 2, 8, dist=lambda i, j: 20)
    s['pool-any'] = e.pool(0, 1, 2).get().get().get().get().put(0) \
        .put(0, irq=True).put(0).put(1).put(1).destroy().data()
    e = xeon()
    s['pool-near'] = e.pool(0, 1, 4, max_users=3).get([0]).get([30]) \
        .get([0]).get([0]).get([0]).get([1]).get([0]).get([29]).get([0]) \
        .get(('range', 14, 14)).get([0]).get([0]).get([0]).get([0]).data()
    e = epyc()
    s['pool-hops'] = e.pool(3, 0, 3, max_users=2).get([64]).get([200]) \
        .get([3]).get([64]).get([64]).get([64]).get([65]).get([100]).data()
    e = Engine(1, 2, 4)
    s['pool-bound'] = e.pool(-1, 2, 2, max_users=1).get().get().get() \
        .get([0]).put(1).get([7]).data()
    e = Engine(2, 1, 4, dist=lambda i, j: 20)
    s['pool-fail'] = e.pool(1, 0, 3).get(fail=True).get().get([3], fail=True) \
        .get([3]).put(-1).put(3).put_raw(250).data()
    e = Engine(2, 1, 4, dist=lambda i, j: 20)
    s['pool-bad'] = e.pool(0, 0, 0).pool(0, 3, 2).pool('bad', 0, 2) \
        .pool(0, 0, 2, bad='name').pool(0, 0, 2, bad='ops') \
        .pool(0, 0, 2, bad='first').pool(0, 0, 2, first='top').get().get() \
        .put(0).put(1).data()
    e = xeon()
    s['pool-and-devices'] = e.spread(0, 28, 1).pool(0, 1, 8).get([0]) \
        .get([0]).spread(0, 14, 1).get(('range', 0, 14)).release(0) \
        .get().destroy().spread(1, 3, 2).data()
    return s


# ----------------------------------------------------------------- sysfs --

# The paths fuzz_sysfs.c writes, by kind (its table, in order).
FILES = ['possible', 'online', 'isolated', 'nohz_full',
         'thread_siblings_list', 'physical_package_id', 'shared_cpu_list',
         'cpulist', 'distance', 'present', 'nodedir', 'dir']


def rec(kind, idx, content):
    """One record: kind, index (CPU or node), length, content."""
    if isinstance(content, str):
        content = content.encode()
    return bytes([FILES.index(kind), idx, len(content)]) + content


def sysfs_machine(nodes, cpus_per_node, smt=1, distances=None, extra=b'',
                  skip=(), mem_nodes=0):
    n = nodes * cpus_per_node
    out = bytearray([0])
    out += rec('possible', 0, '0-%d\n' % (n - 1))
    out += rec('online', 0, '0-%d\n' % (n - 1))
    for c in range(n):
        core = c // smt * smt
        if ('sib', c) not in skip:
            out += rec('thread_siblings_list', c,
                       '%d-%d\n' % (core, core + smt - 1) if smt > 1
                       else '%d\n' % c)
        out += rec('physical_package_id', c, '%d\n' % (c // cpus_per_node))
        if ('l3', c) in skip:
            continue
        out += rec('shared_cpu_list', c, '%d-%d\n' % (
            c // cpus_per_node * cpus_per_node,
            c // cpus_per_node * cpus_per_node + cpus_per_node - 1))
    for nd in range(nodes + mem_nodes):
        out += rec('cpulist', nd, '%d-%d\n' % (nd * cpus_per_node,
                                               (nd + 1) * cpus_per_node - 1)
                   if nd < nodes else '\n')
        row = ' '.join(str(distances[nd][k] if distances else
                           10 if k == nd else 20)
                       for k in range(nodes + mem_nodes))
        if ('dist', nd) not in skip:
            out += rec('distance', nd, row + '\n')
    return bytes(out + extra)


def sysfs_seeds():
    s = {}
    s['flat-4'] = bytes([0]) + rec('possible', 0, '0-3\n') + \
        rec('online', 0, '0-3\n') + b''.join(
            rec('thread_siblings_list', c, '%d\n' % c) for c in range(4))
    s['two-nodes'] = sysfs_machine(2, 4)
    s['two-nodes-smt2'] = sysfs_machine(2, 4, smt=2)
    s['four-nodes-asym'] = sysfs_machine(4, 2, distances=[
        [10, 12, 20, 22], [12, 10, 22, 20], [21, 23, 10, 12],
        [23, 21, 12, 10]])
    s['isolated-nohz'] = sysfs_machine(2, 4, extra=rec('isolated', 0, '1-2\n')
                                       + rec('nohz_full', 0, '(null)\n'))
    s['nohz-list'] = sysfs_machine(1, 4, extra=rec('nohz_full', 0, '0,3\n'))
    s['offline'] = bytes([0]) + rec('possible', 0, '0-3\n') + \
        rec('online', 0, '0,2-3\n') + b''.join(
            rec('thread_siblings_list', c, '%d\n' % c) for c in (0, 2, 3))
    s['memory-node'] = sysfs_machine(2, 4, mem_nodes=1)
    s['file-is-dir'] = bytes([0]) + rec('dir', 1, '') + \
        sysfs_machine(1, 2)[1:]
    # Bad trees: each names a file.
    s['bad-possible'] = bytes([0]) + rec('possible', 0, '0-x\n')
    s['bad-range'] = bytes([0]) + rec('possible', 0, '3-1\n')
    s['empty-possible'] = bytes([0]) + rec('possible', 0, '')
    s['no-online'] = bytes([0]) + rec('possible', 0, '0-3\n')
    s['online-not-possible'] = bytes([0]) + rec('possible', 0, '0-1\n') + \
        rec('online', 0, '0-2\n')
    s['missing-siblings'] = sysfs_machine(1, 4, skip={('sib', 2)})
    s['not-own-sibling'] = sysfs_machine(1, 2, extra=rec(
        'thread_siblings_list', 1, '0\n'))
    s['siblings-disagree'] = sysfs_machine(1, 4, extra=rec(
        'thread_siblings_list', 1, '0-1\n'))
    s['bad-package'] = sysfs_machine(1, 2, extra=rec('physical_package_id',
                                                     0, 'zero\n'))
    s['l3-without-cpu'] = sysfs_machine(1, 2, extra=rec('shared_cpu_list',
                                                        0, '1\n'))
    s['bad-distance'] = sysfs_machine(2, 2, extra=rec('distance', 1,
                                                      '20 300\n'))
    s['short-distance'] = sysfs_machine(2, 2, extra=rec('distance', 0, '10\n'))
    s['long-distance'] = sysfs_machine(2, 2, extra=rec('distance', 0,
                                                       '10 20 30\n'))
    s['missing-distance'] = sysfs_machine(2, 2, skip={('dist', 1)})
    s['nodes-overlap'] = sysfs_machine(2, 2, extra=rec('cpulist', 1, '1-3\n'))
    s['nul-byte'] = sysfs_machine(1, 2, extra=rec('online', 0, '0\x00-1\n'))
    s['odd-node-dir'] = sysfs_machine(1, 2, extra=rec('nodedir', 201, ''))
    s['node-leading-zero'] = sysfs_machine(1, 2, extra=rec('nodedir', 200,
                                                           ''))
    s['package-int-max'] = sysfs_machine(1, 2, extra=rec(
        'physical_package_id', 1, '2147483647\n'), skip={('l3', 1)})
    s['no-package-no-l3'] = bytes([0]) + rec('possible', 0, '0-1\n') + \
        rec('online', 0, '0-1\n') + rec('thread_siblings_list', 0, '0\n') + \
        rec('thread_siblings_list', 1, '1\n') + \
        rec('physical_package_id', 1, '-1\n')
    s['huge-file'] = sysfs_machine(1, 2) + bytes([FILES.index('online'), 0,
                                                  255])
    # Sibling lists that name an offline CPU first: online cpu1 and cpu2
    # are not siblings, whether cpu0 (offline) has a list or not.
    odd = bytes([0]) + rec('possible', 0, '0-2\n') + \
        rec('online', 0, '1-2\n') + rec('thread_siblings_list', 1, '0-1\n') + \
        rec('thread_siblings_list', 2, '0,2\n')
    s['offline-first-sibling'] = odd
    s['offline-sibling-listed'] = odd + rec('thread_siblings_list', 0, '0\n')
    s['offline-not-own-sibling'] = sysfs_machine(1, 4, extra=rec(
        'online', 0, '0-2\n') + rec('thread_siblings_list', 3, '1-2\n'))
    s['present-file'] = sysfs_machine(1, 4, extra=rec('present', 0, '0-5\n') +
                                      rec('possible', 0, '0-7\n'))
    s['root-not-dir'] = bytes([255])
    s['root-missing'] = bytes([254])
    # No node directory and no CPU present: node 0 has no CPUs (NULL).
    s['no-cpu-present'] = bytes([0]) + rec('possible', 0, '0-7\n') + \
        rec('online', 0, '\n')
    return s


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'corpus')
    for sub, seeds in (('engine', engine_seeds()), ('sysfs', sysfs_seeds())):
        d = os.path.join(top, sub)
        os.makedirs(d, exist_ok=True)
        for name, data in sorted(seeds.items()):
            with open(os.path.join(d, name), 'wb') as f:
                f.write(data)
        print('%s: %d seeds' % (d, len(seeds)))


if __name__ == '__main__':
    main()
