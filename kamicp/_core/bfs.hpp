// Unit "breadth-first searches" over a quotient graph (contraction.hpp), shared by the bounds, the child
// bounds of IDA* and the heuristics: a scratch of visit stamps (a new stamp per search instead of
// clearing), distances and the queue, and the searches the radius terms need (full, cut at a depth, with
// the cutoff of the best centre so far) and the ring test (models/bounds.md) on a finished search.
#pragma once

#include <algorithm>
#include <vector>

#include "contraction.hpp"

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

struct Bfs {
    std::vector<int> stamp, dist, queue;  // per current region (sized for the initial regions)
    int stamp_val = 0;

    explicit Bfs(int n) : stamp(std::max(n, 1), 0), dist(std::max(n, 1), -1), queue(std::max(n, 1)) {}

    int next_stamp() {
        if (++stamp_val == 0x7fffffff) {
            std::fill(stamp.begin(), stamp.end(), 0);
            stamp_val = 1;
        }
        return stamp_val;
    }

    // reached by the last search
    bool reached(int v) const { return stamp[v] == stamp_val; }

    // Full BFS over one island from src: dist (by quotient id) and the farthest vertex; returns the eccentricity.
    int full(const Quot &q, int src, std::vector<int> &out, int &far) {
        int st = next_stamp();
        stamp[src] = st;
        out[src] = 0;
        int qh = 0, qt = 0;
        queue[qt++] = src;
        far = src;
        while (qh < qt) {
            int v = queue[qh++];
            for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
                int w = q.adj[e];
                if (stamp[w] != st) {
                    stamp[w] = st;
                    out[w] = out[v] + 1;
                    far = w;
                    queue[qt++] = w;
                }
            }
        }
        return out[far];
    }

    // Is the eccentricity of src at most B within an island of `size` vertices, and (with the ring rule)
    // its ring at distance B one colour? (BFS cut at depth B)
    bool ecc_at_most(const Quot &q, int src, int B, int size, bool ring) {
        int st = next_stamp();
        stamp[src] = st;
        dist[src] = 0;
        int qh = 0, qt = 0;
        queue[qt++] = src;
        while (qh < qt) {
            int v = queue[qh++];
            int dv = dist[v];
            if (dv >= B) break;  // everything within depth B is already queued
            for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
                int w = q.adj[e];
                if (stamp[w] != st) {
                    stamp[w] = st;
                    dist[w] = dv + 1;
                    queue[qt++] = w;
                }
            }
        }
        return qt == size && (!ring || tail_mono(q, qt, B));
    }

    // Breadth-first search from src over the current regions, into queue (in order) and dist; it gives up
    // (returns -1) once a vertex at depth > `within` is due while fewer than `size` vertices are reached
    // (every unreached one is farther than `within`). Otherwise returns the eccentricity of src in its
    // island (`qt` = vertices reached, `sum` = their total distance).
    int ecc_within(const Quot &q, int src, int within, int size, int &qt, int &sum) {
        int st = next_stamp();
        stamp[src] = st;
        dist[src] = 0;
        int qh = 0, ecc = 0;
        qt = 0;
        sum = 0;
        queue[qt++] = src;
        while (qh < qt) {
            int v = queue[qh++], dv = dist[v];
            sum += dv;
            if (dv + 1 > within && qt < size) return -1;
            for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
                int w = q.adj[e];
                if (stamp[w] != st) {
                    stamp[w] = st;
                    dist[w] = ecc = dv + 1;
                    queue[qt++] = w;
                }
            }
        }
        return ecc;
    }

    // After a search (queue[0..qt), distances dist) that reached depth B: are the vertices at depth B, the
    // queue's tail, all of one colour?
    bool tail_mono(const Quot &q, int qt, int B) const {
        for (int i = qt - 1; i >= 0 && dist[queue[i]] == B; --i)
            if (q.color[queue[i]] != q.color[queue[qt - 1]]) return false;
        return true;
    }
};

// Are the vertices of `verts` at distance exactly B (by dist) all of one colour (or none)? The ring rule
// (models/bounds.md): a centre of eccentricity B needs this to finish in B moves.
inline bool ring_mono(const Quot &q, const int *verts, int size, const int *dist, int B) {
    int e0 = -1;
    for (int i = 0; i < size; ++i) {
        int v = verts[i];
        if (dist[v] != B) continue;
        if (e0 < 0) e0 = q.color[v];
        else if (q.color[v] != e0) return false;
    }
    return true;
}

}  // namespace
}  // namespace kamicp
