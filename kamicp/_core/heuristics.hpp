// Unit "upper-bound heuristics" (never proofs; every plan is replayed by kamicp/board/rules.py in the solver):
// - Beam: keep the `width` best boards per depth by (sound lower bound without the gathering refinement,
//   [closeness,] regions left); expand each by its `fan` moves that merge the most regions.
// - Rollout: one move (or none), then a pivot rollout: finish the board by painting only the growing blob
//   of one region, each colour chosen greedily with one step of look-ahead.
// Each is built from the board alone (no IDA* search behind it).
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bfs.hpp"
#include "bounds.hpp"
#include "contraction.hpp"

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

using Plan = std::vector<std::pair<int, int>>;  // (initial region, colour) per move

class Beam {
  public:
    // ranks by the bound without the gathering refinement, with or without the ring rule
    Beam(const Board &board, bool ring)
        : board_(board), K_(board.K), ring_(ring), contraction_(board_), bounds_(board.n, board.K, {false, ring}),
          bfs_(board.n) {}

    // The first plan the beam finds within `time_limit` seconds into `plan` (true), else false.
    bool run(int width, int fan, double time_limit, bool closeness, std::vector<std::pair<int, int>> &plan) {
        struct Node {
            std::vector<int> state;
            std::vector<std::pair<int, int>> plan;
            int bound, regions, spread;
        };
        plan.clear();
        auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(time_limit));
        std::vector<Node> layer{{board_.start, {}, 0, 0, 0}};
        Quot q, cq;
        std::vector<int> merged(K_);
        for (int depth = 0; depth <= 4 * board_.n + 8 && !layer.empty(); ++depth) {
            std::vector<Node> next;
            std::unordered_map<std::string, int> seen;
            for (const Node &node : layer) {
                contraction_.quotient(node.state, q);
                bool one = true;
                for (int a = 1; a < q.m; ++a)
                    if (q.color[a] != q.color[0]) one = false;
                if (one) {
                    plan = node.plan;
                    return true;
                }
                std::vector<std::array<int, 3>> cand;
                for (int a = 0; a < q.m; ++a) {
                    std::fill(merged.begin(), merged.end(), 0);
                    for (int e = q.astart[a]; e < q.astart[a + 1]; ++e) merged[q.color[q.adj[e]]]++;
                    for (int c = 0; c < K_; ++c)
                        if (c != q.color[a]) cand.push_back({-merged[c], a, c});
                }
                std::sort(cand.begin(), cand.end());
                if (static_cast<int>(cand.size()) > fan) cand.resize(fan);
                for (auto &mv : cand) {
                    std::vector<int> child(node.state);
                    for (int i = q.mstart[mv[1]]; i < q.mstart[mv[1] + 1]; ++i) child[q.members[i]] = mv[2];
                    std::string k = board_key(child, board_.n);
                    if (seen.count(k)) continue;
                    seen.emplace(k, 0);
                    contraction_.quotient(child, cq);
                    Node nn{std::move(child), node.plan, bounds_.bound(cq), cq.m, closeness ? spread(cq) : 0};
                    nn.plan.emplace_back(q.rep[mv[1]], mv[2]);
                    next.push_back(std::move(nn));
                }
                if (std::chrono::steady_clock::now() > until) return false;
            }
            std::stable_sort(next.begin(), next.end(), [](const Node &x, const Node &y) {
                if (x.bound != y.bound) return x.bound < y.bound;
                return x.spread != y.spread ? x.spread < y.spread : x.regions < y.regions;
            });
            if (static_cast<int>(next.size()) > width) next.resize(width);
            layer = std::move(next);
        }
        return false;
    }


  private:
    const Board &board_;
    int K_;
    bool ring_;
    Contraction contraction_;
    Bounds bounds_;
    Bfs bfs_;  // for the tie-break

    // The beam's tie-break among boards of equal bound (a heuristic, never a proof): the sum of distances
    // from a centre that attains the radius term (with the ring rule when on), the least such sum; 0 on a
    // board of several islands. Smaller means the board is gathered closer around its centre (measured:
    // shorter plans on 7 of 43 levels, none longer; benchmarks/RESULTS.md, "The beam with the closeness
    // tie-break").
    int spread(const Quot &q) {
        const int m = q.m;
        int best_val = m + 2, best_sum = 0;
        std::vector<std::pair<int, int>> order;  // by degree, largest first: good centres early, so
        for (int v = 0; v < m; ++v) order.emplace_back(q.astart[v] - q.astart[v + 1], v);  // the cutoff bites
        std::sort(order.begin(), order.end());
        for (auto &dv_src : order) {
            int qt, sum;
            int ecc = bfs_.ecc_within(q, dv_src.second, best_val, m, qt, sum);
            if (ecc < 0) continue;  // some region is farther than best_val: this centre cannot attain it
            if (qt < m) return 0;
            int val = ecc + (ring_ && !bfs_.tail_mono(q, qt, ecc) ? 1 : 0);
            if (val < best_val || (val == best_val && sum < best_sum)) best_val = val, best_sum = sum;
        }
        return best_sum;
    }

};

class Rollout {
  public:
    explicit Rollout(const Board &board)
        : board_(board), K_(board.K), contraction_(board_), bfs_(board.n), merged_(board.K, 0), cnt_(board.K, 0) {}

    // One move, then a pivot rollout: the shortest such plan of at most `limit` moves, trying every move of
    // the start board while time is left (an upper bound, never a proof). Returns its length or -1.
    int run(int limit, double time_limit, std::vector<std::pair<int, int>> &plan) {
        auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(time_limit));
        Quot q, cq;
        contraction_.quotient(board_.start, q);
        std::vector<std::pair<int, int>> tail;
        int best = -1;
        plan.clear();
        int r = pivot_rollout(q, limit, tail);
        if (r >= 0) best = r, plan = tail, limit = r - 1;
        std::vector<int> child;
        for (int a = 0; a < q.m; ++a)
            for (int c = 0; c < K_; ++c) {
                if (c == q.color[a] || limit < 1) continue;
                if (std::chrono::steady_clock::now() > until) return best;
                child = board_.start;
                for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) child[q.members[i]] = c;
                contraction_.quotient(child, cq);
                r = pivot_rollout(cq, limit - 1, tail);
                if (r < 0) continue;
                best = r + 1;
                limit = best - 1;
                plan.assign(1, {q.rep[a], c});
                plan.insert(plan.end(), tail.begin(), tail.end());
            }
        return best;
    }

  private:
    // Pivot rollout (an upper bound, never a proof): finish the board by painting only the growing blob of
    // one region (the pivot), choosing each colour greedily with one step of look-ahead by the pivot
    // bound max(distance from the blob to the farthest region, colours outside the blob). Tries the
    // pivots of eccentricity at most min(limit, radius + 2); returns the fewest steps (<= limit) and fills
    // `moves` (taps on the pivot's smallest initial region), or -1.
    int pivot_rollout(const Quot &q, int limit, std::vector<std::pair<int, int>> &moves) {
        const int m = q.m;
        moves.clear();
        if (m == 1) return 0;
        if (limit < 1) return -1;
        std::vector<std::pair<int, int>> pivots;
        for (int x = 0; x < m; ++x) {
            int far;
            int e = bfs_.full(q, x, bfs_.dist, far);
            pivots.emplace_back(e, x);
        }
        for (int x = 0; x < m; ++x)
            if (!bfs_.reached(x)) return -1;  // several islands: no single pivot floods them all
        std::sort(pivots.begin(), pivots.end());
        const int cap = std::min(limit, pivots[0].first + 2);  // + 1 misses tri-90b5c-proper-s405's 11
        int best = -1;
        std::vector<char> blob(m), b1(m), b2(m);
        std::vector<int> colours, next_colours;
        std::vector<std::pair<int, int>> seq;
        for (auto &px : pivots) {
            int lim = best >= 0 ? best - 1 : limit;
            if (px.first > std::min(cap, lim)) break;
            int x = px.second;
            std::fill(blob.begin(), blob.end(), 0);
            blob[x] = 1;
            int size = 1, steps = 0;
            seq.clear();
            while (size < m) {
                if (steps + pivot_bound(q, blob) > lim) break;
                int bestc = -1, bsize = 0;
                std::pair<int, int> bkey{1 << 30, 0};
                for (int c : blob_colours(q, blob, colours)) {
                    b1 = blob;
                    int s1 = size + grow_blob(q, b1, c);
                    std::pair<int, int> key{0, -s1};
                    if (s1 < m) {
                        key = {1 << 30, 0};
                        for (int c2 : blob_colours(q, b1, next_colours)) {
                            b2 = b1;
                            int s2 = s1 + grow_blob(q, b2, c2);
                            std::pair<int, int> k2{s2 < m ? pivot_bound(q, b2) : 0, -s2};
                            key = std::min(key, k2);
                        }
                    }
                    if (key < bkey) bkey = key, bestc = c, bsize = s1;
                }
                grow_blob(q, blob, bestc);
                size = bsize;
                seq.emplace_back(q.rep[x], bestc);
                ++steps;
            }
            if (size == m && steps <= lim) {
                best = steps;
                moves = seq;
            }
        }
        return best;
    }

    // The colours of the regions next to the blob (`out`, returned).
    const std::vector<int> &blob_colours(const Quot &q, const std::vector<char> &blob, std::vector<int> &out) {
        std::fill(merged_.begin(), merged_.end(), 0);
        for (int a = 0; a < q.m; ++a)
            if (blob[a])
                for (int e = q.astart[a]; e < q.astart[a + 1]; ++e)
                    if (!blob[q.adj[e]]) merged_[q.color[q.adj[e]]] = 1;
        out.clear();
        for (int c = 0; c < K_; ++c)
            if (merged_[c]) out.push_back(c);
        return out;
    }

    // Paint the blob c: it absorbs its neighbours of colour c (regions of one colour are never adjacent,
    // so one layer is all). Returns the number absorbed.
    int grow_blob(const Quot &q, std::vector<char> &blob, int c) {
        int st = bfs_.next_stamp(), added = 0;
        for (int a = 0; a < q.m; ++a)
            if (blob[a])
                for (int e = q.astart[a]; e < q.astart[a + 1]; ++e) {
                    int w = q.adj[e];
                    if (!blob[w] && q.color[w] == c && bfs_.stamp[w] != st) bfs_.stamp[w] = st, bfs_.queue[added++] = w;
                }
        for (int i = 0; i < added; ++i) blob[bfs_.queue[i]] = 1;
        return added;
    }

    // A lower bound on the steps a pivot-only finish needs from `blob`: each step brings every region at
    // most one step closer and removes at most one colour from outside.
    int pivot_bound(const Quot &q, const std::vector<char> &blob) {
        int st = bfs_.next_stamp(), qh = 0, qt = 0, ecc = 0;
        for (int a = 0; a < q.m; ++a)
            if (blob[a]) bfs_.stamp[a] = st, bfs_.dist[a] = 0, bfs_.queue[qt++] = a;
        std::fill(cnt_.begin(), cnt_.end(), 0);
        while (qh < qt) {
            int v = bfs_.queue[qh++];
            for (int e = q.astart[v]; e < q.astart[v + 1]; ++e) {
                int w = q.adj[e];
                if (bfs_.stamp[w] != st) {
                    bfs_.stamp[w] = st;
                    bfs_.dist[w] = ecc = bfs_.dist[v] + 1;
                    cnt_[q.color[w]] = 1;
                    bfs_.queue[qt++] = w;
                }
            }
        }
        int outside = 0;
        for (int c = 0; c < K_; ++c) outside += cnt_[c];
        return std::max(ecc, outside);
    }

    const Board &board_;
    int K_;
    Contraction contraction_;
    Bfs bfs_;
    std::vector<int> merged_, cnt_;
};

}  // namespace
}  // namespace kamicp
