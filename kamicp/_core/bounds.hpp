// Unit "lower bounds": the sound lower bound of kamicp/prover/bounds.py on a quotient graph (per island
// max(radius with the ring rule, colour bound with the gathering refinement); min over the final colour
// of the sum over islands), and `prunes`, which decides bound > budget on one-island boards without
// computing the bound exactly (landmark lower bounds on eccentricities, models/strengthening.md §5).
// The rules (gathering, ring) are switchable for ablations only; the beam ranks without gathering.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "bfs.hpp"
#include "contraction.hpp"

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

struct BoundRules {
    bool gather = true;  // the gathering refinement of the colour bound
    bool ring = true;    // the ring refinement of the radius bound
};

// bounds.colour_bound for final colour d: one move per other colour present, plus the cheapest gathering
inline int colour_bound(int K, const int *cnt, const int *g, int d) {
    int others = 0, least = 2;
    for (int c = 0; c < K; ++c) {
        if (c == d || cnt[c] == 0) continue;
        ++others;
        least = std::min(least, g[c]);
    }
    return others == 0 ? 0 : others + least;
}

// Appends the island (connected component) of s to `order`, breadth-first, marking it `id` in `island`.
inline void grow_island(const Quot &q, int s, int id, std::vector<int> &island, std::vector<int> &order) {
    size_t first = order.size();
    island[s] = id;
    order.push_back(s);
    for (size_t h = first; h < order.size(); ++h) {
        int v = order[h];
        for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
            int w = q.adj[e];
            if (island[w] == -1) {
                island[w] = id;
                order.push_back(w);
            }
        }
    }
}

class Bounds {
  public:
    Bounds(int n, int K, BoundRules rules)
        : bfs_(n), K_(K), rules_(rules), land0_(std::max(n, 1), 0), land1_(std::max(n, 1), 0),
          land2_(std::max(n, 1), 0), cnt_(K, 0), merged_(K, 0), g_(K, 0) {}

    // bound(q) > budget, decided without computing the bound exactly on one-island boards.
    // Afterwards `single_island()` tells whether q was one island.
    bool prunes(const Quot &q, int budget) {
        const int m = q.m;
        island_.assign(m, -1);
        order_.clear();
        int islands = 0;
        for (int s = 0; s < m && islands < 2; ++s)
            if (island_[s] == -1) grow_island(q, s, islands++, island_, order_);
        single_island_ = islands == 1;
        if (islands > 1) return bound(q) > budget;
        // one island: bound = max(radius, min over d of the colour bound for d)
        std::fill(cnt_.begin(), cnt_.end(), 0);
        for (int a = 0; a < m; ++a) cnt_[q.color[a]]++;
        gather_costs(q, order_.data(), m, cnt_.data(), g_.data());
        int cbmin = 1 << 30;
        for (int d = 0; d < K_; ++d) cbmin = std::min(cbmin, colour_bound(K_, cnt_.data(), g_.data(), d));
        if (cbmin > budget) return true;
        return !radius_at_most(q, order_.data(), m, budget);
    }

    bool single_island() const { return single_island_; }

    // The sound lower bound of bounds.lower_bound on the quotient graph.
    int bound(const Quot &q) {
        const int m = q.m;
        std::vector<int> island(m, -1);
        std::vector<int> order;
        order.reserve(m);
        std::vector<int> rad;
        std::vector<std::vector<int>> counts, gathers;
        for (int s = 0; s < m; ++s) {
            if (island[s] != -1) continue;
            size_t first = order.size();
            grow_island(q, s, static_cast<int>(rad.size()), island, order);
            std::vector<int> cnt(K_, 0), g(K_, 0);
            for (size_t h = first; h < order.size(); ++h) cnt[q.color[order[h]]]++;
            gather_costs(q, order.data() + first, static_cast<int>(order.size() - first), cnt.data(), g.data());
            counts.push_back(std::move(cnt));
            gathers.push_back(std::move(g));
            rad.push_back(radius(q, order.data() + first, static_cast<int>(order.size() - first)));
        }
        int result = -1;
        for (int d = 0; d < K_; ++d) {
            int total = 0;
            for (size_t i = 0; i < rad.size(); ++i)
                total += std::max(rad[i], colour_bound(K_, counts[i].data(), gathers[i].data(), d));
            if (result < 0 || total < result) result = total;
        }
        return result;
    }

    // bounds.gather_costs: per colour of one island (counts cnt), a lower bound 0/1/2 on the moves that leave
    // it a single region: 0 one region; 1 two regions, or a region touches all of them; else 2.
    void gather_costs(const Quot &q, const int *verts, int size, const int *cnt, int *g) {
        for (int c = 0; c < K_; ++c) g[c] = cnt[c] <= 1 ? 0 : cnt[c] == 2 || !rules_.gather ? 1 : 2;
        for (int i = 0; i < size; ++i) {
            int v = verts[i];
            std::fill(merged_.begin(), merged_.end(), 0);
            for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) merged_[q.color[q.adj[e]]]++;
            for (int c = 0; c < K_; ++c)
                if (g[c] == 2 && merged_[c] == cnt[c]) g[c] = 1;
        }
    }

  private:
    Bfs bfs_;
    int K_;
    BoundRules rules_;
    std::vector<int> land0_, land1_, land2_, cnt_, merged_, g_, island_, order_;
    std::vector<std::pair<int, int>> cand_;
    bool single_island_ = false;

    // The radius of one island (with the ring rule: min over v of ecc(v) + [its outermost ring has two
    // colours]) with cutoff: a search stops once its depth reaches the best value so far.
    int radius(const Quot &q, const int *verts, int size) {
        int best = size;  // larger than any eccentricity
        if (size == 1) best = 0;
        std::vector<std::pair<int, int>> cand;
        for (int h = 0; h < size; ++h) {
            int v = verts[h];
            cand.emplace_back(-(q.astart[v + 1] - q.astart[v]), v);
        }
        std::sort(cand.begin(), cand.end());
        for (auto &cv : cand) {
            if (best == 0) break;
            int qt, sum;
            int ecc = bfs_.ecc_within(q, cv.second, best - 1, size, qt, sum);  // -1: every unreached node is
            if (ecc < 0) continue;                                         // at distance >= best
            // the ring rule: + 1 unless the ring at distance ecc (the queue's tail) is one colour
            int val = ecc + (rules_.ring && !bfs_.tail_mono(q, qt, ecc) ? 1 : 0);
            if (val < best) best = val;
        }
        return best;
    }

    // radius(island) <= B, decided exactly: landmark searches give each vertex a lower bound on its
    // eccentricity (ecc(v) >= d(L, v) and ecc(v) >= ecc(L) - d(L, v)); only vertices whose lower bound is
    // <= B are tried. With the ring rule: some v has ecc(v) <= B and its ring at distance B one colour.
    bool radius_at_most(const Quot &q, const int *verts, int size, int B) {
        if (size == 1) return B >= 0;
        if (B <= 0) return false;
        int v0 = verts[0], bestdeg = -1;
        for (int i = 0; i < size; ++i) {
            int v = verts[i], deg = q.astart[v + 1] - q.astart[v];
            if (deg > bestdeg) bestdeg = deg, v0 = v;
        }
        int far0, far1;
        auto fits = [&](int ecc, const std::vector<int> &dist) {
            return ecc < B || (ecc == B && (!rules_.ring || ring_mono(q, verts, size, dist.data(), B)));
        };
        int ecc0 = bfs_.full(q, v0, land0_, far0);
        if (fits(ecc0, land0_)) return true;
        int ecc1 = bfs_.full(q, far0, land1_, far1);
        if (fits(ecc1, land1_)) return true;
        int far2;
        int ecc2 = bfs_.full(q, far1, land2_, far2);
        if (fits(ecc2, land2_)) return true;
        cand_.clear();
        for (int i = 0; i < size; ++i) {
            int v = verts[i];
            int lb = std::max(land0_[v], ecc0 - land0_[v]);
            lb = std::max(lb, std::max(land1_[v], ecc1 - land1_[v]));
            lb = std::max(lb, std::max(land2_[v], ecc2 - land2_[v]));
            if (lb <= B && v != v0 && v != far0 && v != far1) cand_.emplace_back(lb, v);
        }
        std::sort(cand_.begin(), cand_.end());
        for (auto &cv : cand_)
            if (bfs_.ecc_at_most(q, cv.second, B, size, rules_.ring)) return true;
        return false;
    }
};

}  // namespace
}  // namespace kamicp
