// Unit "child bounds" of IDA* (models/strengthening.md §5): at a node with one island, every child's
// bound is decided from the node's region distances, without building the child. A move contracts its
// star S (the clicked region and its neighbours of the new colour); the child's distances are exactly
// d'(x, y) = min(d(x, y), dS(x) + dS(y)) with dS(x) = min over s in S of d(x, s) (models/bounds.md), and
// its colour counts change only around S. `child_outcome` decides exactly what the child's own
// contraction, solved test and Bounds::prunes would decide, so pruned children are counted, never built;
// with the cluster gathering cost (clusters.hpp) also what the child's own cluster test would decide, on the
// child's distances among each colour's regions derived from the node's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "bounds.hpp"
#include "clusters.hpp"
#include "contraction.hpp"

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

// What one node prepares for its children (kept per depth, reused).
struct ChildData {
    std::vector<int16_t> dist;               // distances between the node's regions
    std::vector<uint64_t> far, tk, ge, cls;  // far: {y : d(x, y) > b1}; ge: {y : d(x, y) >= b1};
                                             // cls: colour classes (ring rule); tk: per child, dS(y) <= k
    std::vector<int> cnt, ds;
    std::vector<int> nb, gatherers;  // nb[x*K+e]: x's neighbours of colour e; regions touching all of e
};

class ChildBounds {
  public:
    ChildBounds(int n, int K, BoundRules rules)
        : bfs_(n), K_(K), rules_(rules), cchild_(K_, 0), gchild_(K_, 0),
          snb_(K_, 0), tstamp_(std::max(n, 1), 0), ta_(std::max(n, 1), 0), tsc_(std::max(n, 1), 0) {}

    // A one-island node's region distances and, for children with budget b1, each region's far set
    // {y : d(x, y) > b1}. A child contracts the star S of the move; its distances are exactly
    // d'(x, y) = min(d(x, y), dS(x) + dS(y)) with dS(x) = min over s in S of d(x, s) (models/bounds.md).
    void prepare_children(ChildData &f, const Quot &q, int b1) {
        const int m = q.m, W = (m + 63) / 64;
        f.dist.assign(static_cast<size_t>(m) * m, 0);
        for (int x = 0; x < m; ++x) {
            int far;
            bfs_.full(q, x, bfs_.dist, far);
            int16_t *row = &f.dist[static_cast<size_t>(x) * m];
            for (int y = 0; y < m; ++y) row[y] = static_cast<int16_t>(bfs_.dist[y]);
        }
        f.far.assign(static_cast<size_t>(m) * W, 0);
        for (int x = 0; x < m; ++x) {
            const int16_t *row = &f.dist[static_cast<size_t>(x) * m];
            uint64_t *fx = &f.far[static_cast<size_t>(x) * W];
            for (int y = 0; y < m; ++y)
                if (row[y] > b1) fx[y >> 6] |= 1ULL << (y & 63);
        }
        if (rules_.ring) {
            f.ge.assign(static_cast<size_t>(m) * W, 0);
            f.cls.assign(static_cast<size_t>(K_) * W, 0);
            for (int x = 0; x < m; ++x) {
                const int16_t *row = &f.dist[static_cast<size_t>(x) * m];
                uint64_t *gx = &f.ge[static_cast<size_t>(x) * W];
                for (int y = 0; y < m; ++y)
                    if (row[y] >= b1) gx[y >> 6] |= 1ULL << (y & 63);
                f.cls[static_cast<size_t>(q.color[x]) * W + (x >> 6)] |= 1ULL << (x & 63);
            }
        }
        f.cnt.assign(K_, 0);
        for (int a = 0; a < m; ++a) f.cnt[q.color[a]]++;
        f.ds.assign(m, 0);
        f.tk.assign(static_cast<size_t>(b1 + 1) * W, 0);
        f.nb.assign(static_cast<size_t>(m) * K_, 0);
        f.gatherers.assign(K_, 0);
        for (int x = 0; x < m; ++x) {
            int *row = &f.nb[static_cast<size_t>(x) * K_];
            for (int e = q.astart[x]; e < q.astart[x + 1]; ++e) row[q.color[q.adj[e]]]++;
            for (int e = 0; e < K_; ++e)
                if (f.cnt[e] > 0 && row[e] == f.cnt[e]) f.gatherers[e]++;
        }
    }

    // Children are also decided by the cluster gathering cost of this sample object (Ida's).
    void use_clusters(Clusters *clusters) { clusters_ = clusters; }

    // The child of (a, c): 1 = solved, 0 = its bound exceeds b1 (or b1 <= 0), -1 = to be searched.
    // Decides exactly what the child's own quotient, solved test, prunes() and (with use_clusters) the
    // search's cluster test (Ida::cluster_prunes, which a child decided here skips) would decide.
    int child_outcome(ChildData &f, const Quot &q, int a, int c, int merged, int b1) {
        const int out = bound_outcome(f, q, a, c, merged, b1);
        if (out == -1 && clusters_ && q.m - merged <= 300 && cluster_prunes(f, q, a, c, merged, b1)) return 0;
        return out;
    }

  private:
    // child_outcome by the bound alone (leaves the child's dS in f.ds when it returns -1)
    // (always inlined, as child_counts: as separate calls they cost the search without clusters 3-5 %)
    __attribute__((always_inline)) int bound_outcome(ChildData &f, const Quot &q, int a, int c, int merged, int b1) {
        const int m = q.m, W = (m + 63) / 64;
        if (m - merged == 1) return 1;
        if (b1 <= 0) return 0;
        // colour bound of the child: a's colour loses a region, c's regions adjacent to a merge into one.
        // With each non-single colour's gathering cost at its least (1) and at its most (2) the child's
        // colour bound lies between cblow and cbhigh; only in between is it computed exactly.
        int cblow = 1 << 30, cbhigh = 1 << 30;
        for (int d = 0; d < K_; ++d) {
            int others = 0;
            bool single = false;
            for (int e = 0; e < K_; ++e) {
                int ce = f.cnt[e] - (e == q.color[a] ? 1 : 0);
                if (e == c) ce = f.cnt[e] - merged + 1;
                if (e == d || ce == 0) continue;
                ++others;
                if (ce == 1) single = true;
            }
            cblow = std::min(cblow, others == 0 ? 0 : others + (single ? 0 : 1));
            cbhigh = std::min(cbhigh, others == 0 ? 0 : others + (single ? 0 : rules_.gather ? 2 : 1));
        }
        if (cblow > b1) return 0;
        if (cbhigh > b1 && child_colour_bound(f, q, a, c, merged) > b1) return 0;
        // radius of the child <= b1?
        int *ds = f.ds.data();
        const int16_t *ra = &f.dist[static_cast<size_t>(a) * m];
        for (int y = 0; y < m; ++y) ds[y] = ra[y];
        for (int e = q.astart[a]; e < q.astart[a + 1]; ++e) {
            int s = q.adj[e];
            if (q.color[s] != c) continue;
            const int16_t *rs = &f.dist[static_cast<size_t>(s) * m];
            for (int y = 0; y < m; ++y)
                if (rs[y] < ds[y]) ds[y] = rs[y];
        }
        int eccS = 0;
        for (int y = 0; y < m; ++y) eccS = std::max(eccS, ds[y]);
        if (eccS < b1) return -1;
        if (eccS == b1) {  // the contracted node's ring {y : dS(y) = b1} lies outside S (parent colours)
            if (!rules_.ring) return -1;
            int e0 = -1;
            bool mono = true;
            for (int y = 0; y < m && mono; ++y)
                if (ds[y] == b1) {
                    if (e0 < 0) e0 = q.color[y];
                    else mono = q.color[y] == e0;
                }
            if (mono) return -1;
        }
        uint64_t *tk = f.tk.data();
        std::fill(tk, tk + static_cast<size_t>(b1 + 1) * W, 0);
        for (int y = 0; y < m; ++y)
            if (ds[y] <= b1) tk[static_cast<size_t>(ds[y]) * W + (y >> 6)] |= 1ULL << (y & 63);
        for (int k = 1; k <= b1; ++k)
            for (int w = 0; w < W; ++w) tk[static_cast<size_t>(k) * W + w] |= tk[static_cast<size_t>(k - 1) * W + w];
        for (int x = 0; x < m; ++x) {
            if (ds[x] == 0 || ds[x] > b1) continue;  // x in S (the contracted node is done), or too far from S
            const uint64_t *fx = &f.far[static_cast<size_t>(x) * W];
            const uint64_t *t = &tk[static_cast<size_t>(b1 - ds[x]) * W];
            bool ok = true;
            for (int w = 0; w < W; ++w)
                if (fx[w] & ~t[w]) {
                    ok = false;
                    break;
                }
            if (!ok) continue;
            if (!rules_.ring) return -1;
            // x's ring in the child, {y : d'(x, y) = b1}: the S node when dS(x) = b1 (colour c), and the y outside
            // S with d(x, y) >= b1 and dS(x) + dS(y) >= b1 (tk[k] holds dS(y) <= k; tk[0] is S)
            const int kx = std::max(b1 - ds[x] - 1, 0);
            const uint64_t *gx = &f.ge[static_cast<size_t>(x) * W];
            const uint64_t *ex = &tk[static_cast<size_t>(kx) * W];
            int e0 = ds[x] == b1 ? c : -1;
            bool mono = true;
            for (int w = 0; w < W && mono; ++w) {
                uint64_t bits = gx[w] & ~ex[w];
                if (!bits) continue;
                if (e0 < 0) e0 = q.color[(w << 6) + __builtin_ctzll(bits)];
                mono = (bits & ~f.cls[static_cast<size_t>(e0) * W + w]) == 0;
            }
            if (mono) return -1;
        }
        return 0;
    }

    // Ida::cluster_prunes of the child of (a, c) with budget b1, from f.ds (its dS): the child's counts and
    // gather costs as child_counts gives them; its regions of colour e in its own order (quotient ids follow
    // the smallest initial region, so the node's order with S at its first region) and their distances
    // d'(x, y) = min(d(x, y), dS(x) + dS(y)), which for S's first region s0 (dS = 0) is dS(y).
    bool cluster_prunes(ChildData &f, const Quot &q, int a, int c, int merged, int b1) {
        const int m = q.m, *ds = f.ds.data();
        int s0 = 0;
        while (ds[s0] != 0) ++s0;
        child_counts(f, q, a, c, merged);
        bool listed = false;
        return clusters_->prunes(K_, cchild_.data(), gchild_.data(), b1, [&](int e, int cap) {
            if (!listed) {  // every colour's regions at once, bucketed by colour (start_[e] .. start_[e + 1])
                start_.assign(K_ + 1, 0);
                for (int k = 0; k < K_; ++k) start_[k + 1] = start_[k] + cchild_[k];
                list_.resize(start_[K_]);
                fill_ = start_;
                for (int y = 0; y < m; ++y)
                    if (ds[y] != 0 || y == s0) list_[fill_[ds[y] == 0 ? c : q.color[y]]++] = y;
                listed = true;
            }
            const int *ids = &list_[start_[e]], r = start_[e + 1] - start_[e];
            lds_.resize(r);
            for (int j = 0; j < r; ++j) lds_[j] = ds[ids[j]];
            clusters_->table(r);
            for (int i = 0; i < r; ++i) {  // (symmetric, 0 on the diagonal)
                const int16_t *row = &f.dist[static_cast<size_t>(ids[i]) * m];
                const int di = lds_[i];
                int16_t *out = clusters_->row(i);
                out[i] = 0;
                for (int j = i + 1; j < r; ++j)
                    out[j] = clusters_->row(j)[i] = static_cast<int16_t>(std::min<int>(row[ids[j]], di + lds_[j]));
            }
            return clusters_->at_least(cap);
        });
    }

    // The child's exact colour bound min over d (bounds.colour_bound with gather_costs).
    int child_colour_bound(ChildData &f, const Quot &q, int a, int c, int merged) {
        child_counts(f, q, a, c, merged);
        int best = 1 << 30;
        for (int d = 0; d < K_; ++d) best = std::min(best, colour_bound(K_, cchild_.data(), gchild_.data(), d));
        return best;
    }

    // The child's colour counts into cchild_ and its gather costs (bounds.gather_costs) into gchild_, from
    // the parent's neighbour counts: only regions touching the contracted star S change their counts.
    __attribute__((always_inline)) void child_counts(ChildData &f, const Quot &q, int a, int c, int merged) {
        const int m = q.m, x = q.color[a];
        int *cnt2 = cchild_.data(), *g2 = gchild_.data(), *snb = snb_.data();
        for (int e = 0; e < K_; ++e) cnt2[e] = f.cnt[e];
        cnt2[x] -= 1;
        cnt2[c] = f.cnt[c] - merged + 1;
        int st = bfs_.next_stamp();  // bfs_.stamp marks S; tstamp_ marks regions touching S
        bfs_.stamp[a] = st;
        for (int e = q.astart[a]; e < q.astart[a + 1]; ++e)
            if (q.color[q.adj[e]] == c) bfs_.stamp[q.adj[e]] = st;
        if (++tstamp_val_ == 0x7fffffff) {
            std::fill(tstamp_.begin(), tstamp_.end(), 0);
            tstamp_val_ = 1;
        }
        int ts = tstamp_val_;
        std::fill(snb, snb + K_, 0);
        auto visit = [&](int s) {
            for (int e = q.astart[s]; e < q.astart[s + 1]; ++e) {
                int y = q.adj[e];
                if (bfs_.stamp[y] == st) continue;
                if (tstamp_[y] != ts) {
                    tstamp_[y] = ts;
                    ta_[y] = 0;
                    tsc_[y] = 0;
                    snb[q.color[y]]++;
                }
                if (s == a) ta_[y] = 1;
                else tsc_[y]++;
            }
        };
        visit(a);
        for (int e = q.astart[a]; e < q.astart[a + 1]; ++e)
            if (q.color[q.adj[e]] == c) visit(q.adj[e]);
        for (int e = 0; e < K_; ++e) {
            g2[e] = cnt2[e] <= 1 ? 0 : cnt2[e] == 2 || !rules_.gather ? 1 : 2;
            if (g2[e] != 2) continue;
            if (e != c && snb[e] == cnt2[e]) {  // the contracted region touches all of them
                g2[e] = 1;
                continue;
            }
            bool found = false;
            if (e != x && e != c) {  // counts of regions outside S are unchanged
                int inside = 0;
                if (f.nb[static_cast<size_t>(a) * K_ + e] == f.cnt[e]) ++inside;
                for (int k = q.astart[a]; k < q.astart[a + 1]; ++k) {
                    int s = q.adj[k];
                    if (q.color[s] == c && f.nb[static_cast<size_t>(s) * K_ + e] == f.cnt[e]) ++inside;
                }
                found = f.gatherers[e] > inside;
            } else {
                for (int y = 0; y < m && !found; ++y) {
                    if (bfs_.stamp[y] == st) continue;
                    int n = f.nb[static_cast<size_t>(y) * K_ + e];
                    if (tstamp_[y] == ts) n += e == x ? -ta_[y] : 1 - tsc_[y];
                    found = n == cnt2[e];
                }
            }
            if (found) g2[e] = 1;
        }
    }

    Bfs bfs_;
    int K_;
    BoundRules rules_;
    std::vector<int> cchild_, gchild_, snb_, tstamp_, ta_, tsc_, list_, start_, fill_;
    std::vector<int> lds_;  // dS of the regions in list_ (cluster_prunes)
    Clusters *clusters_ = nullptr;
    int tstamp_val_ = 0;
};

}  // namespace
}  // namespace kamicp
