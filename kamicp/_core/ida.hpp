// Unit "IDA*": depth-first search for a plan within a move threshold, the same tree as kamicp/prover/search.py's
// IDAStar: every region may be painted every other colour; pruning only by the sound lower bound
// (bounds.hpp, children decided at their parent by child_bounds.hpp) and a transposition table
// (fail_table.hpp) storing per board the largest budget proven insufficient. Options (SearchSettings):
// - the commuting-move order (models/strengthening.md, "commuting moves"): a move that commutes with the
//   previous one (its clicked set disjoint from and not adjacent to the previous move's; or, with
//   `adjacent`, adjacent to it but painting another colour than the previous clicked set had) must have
//   a larger smallest initial region. Nodes where it pruned a move are stored only under a key that
//   includes the restriction (por 2), or not at all (por 1);
// - a colour-preserving involution of the initial regions (symmetry): the first move on r only if
//   r <= sigma(r) (off when a prior move is given: it is not compatible with the order against it);
// - a prior move P (the last move of a cube, kamicp/prover/prior.py): the root is searched as if reached by P,
//   so the search answers "a solution canonical after P?" (models/cubes.md), not "a solution?";
// - the pivot test (pivot_test.hpp): a one-island node is also pruned when the pivot relation (the layered
//   bound of far regions' pivot games, then their A* optimum) shows every
//   final colour needs more than the budget; such a failure is a bound of the board alone, so it is stored
//   under the plain key. `probe` and `count` do not ask it (their dives would pay an A* run per node): with
//   the test on, they size a larger tree than within() searches;
// - useful colours only (models/useful-colours.md): on a board of one island, with no prior move and no
//   symmetry, a move must paint a colour some neighbour of its region has; the commuting order then also lets
//   an adjacent move paint P's new colour (theorem 3 proves the two rules together);
// - the bound's rules (ablations only).
// `probe` (Knuth's random probes) and `count` (an exact count) size the tree a horizon's search would build,
// without the transposition table: for the estimate of an open horizon's cost (kamicp/prover/estimate.py).
// In the portfolio's race, `attach_stop` hands the search the ledger's shared flags: a horizon another
// process proved is abandoned like a timeout (kamicp/prover/race.py).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "bounds.hpp"
#include "child_bounds.hpp"
#include "clusters.hpp"
#include "contraction.hpp"
#include "fail_table.hpp"
#include "pivot_test.hpp"

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

struct SearchSettings {
    long long table_limit = 3000000;  // entries; the table is cleared when it holds that many
    int por = 2;                      // 0 off, 1 commuting-move order, 2 the same and restricted failures stored
    bool adjacent = true;             // the order also between adjacent moves (off only for ablations)
    BoundRules rules;
    std::vector<int> symmetry;  // a colour-preserving involution of the initial regions, or empty
    int clusters = 0;           // > 0: one-island nodes also pruned by the cluster gathering cost (sample size)
    // the prior move P as the root's previous move (prior_min < 0: none): the initial region holding P,
    // the initial regions meeting N[P] and P's old colour, as dfs takes them
    int prior_min = -1;
    std::vector<char> prior_near;
    int prior_color = -1;
    PivotSettings pivot;  // the pivot test at one-island nodes (pivot_test.hpp; 0 regions: off)
    // only moves that merge (models/useful-colours.md, theorems 2 and 3): used on a board of one island with no
    // prior move and no symmetry, and then the order leaves adjacent moves painting P's new colour unordered
    bool useful = false;
};

enum class Outcome { infeasible = 0, feasible = 1, timeout = 2 };

// The board's initial regions form one island (moves never split one, so every node of its search does too).
bool one_island(const Board &b) {
    Contraction contraction(b);
    Quot q;
    contraction.quotient(b.start, q);
    std::vector<int> island(q.m, -1), order;
    if (q.m > 0) grow_island(q, 0, 0, island, order);
    return static_cast<int>(order.size()) == q.m;
}

class Ida {
  public:
    Ida(Board board, SearchSettings settings)
        : board_(std::move(board)), s_(std::move(settings)), n_(board_.n), K_(board_.K),
          por_(s_.por > 0), por_store_(s_.por > 1), root_sym_(!s_.symmetry.empty() && s_.prior_min < 0),
          useful_(s_.useful && s_.prior_min < 0 && s_.symmetry.empty() && one_island(board_)),
          contraction_(board_), bounds_(n_, K_, s_.rules),
          child_(n_, K_, s_.rules), clusters_(s_.clusters), pivot_(n_, K_, s_.pivot), merged_(K_, 0),
          gather_(K_, 0) {
        table_.set_width(1);
        if (s_.clusters > 0) child_.use_clusters(&clusters_);
    }
    Ida(const Ida &) = delete;  // its units hold references into it
    Ida &operator=(const Ida &) = delete;

    // Stop a search within horizon h (as on a timeout) once flags[h] != 0; flags is memory the caller keeps
    // alive as long as this search (nullptr detaches).
    void attach_stop(const volatile int *flags, int length) {
        stop_ = flags;
        stop_len_ = flags ? length : 0;
    }

    // Publish the node count into *counter every 256 nodes (memory the caller keeps alive as long as this
    // search; nullptr detaches), so another process can show the search's rate while a horizon runs.
    void attach_counter(volatile long long *counter) { counter_ = counter; }

    // A plan of at most `threshold` moves into plan(), or a proof that there is none; time_limit < 0: none.
    Outcome within(int threshold, double time_limit) {
        plan_.clear();
        has_deadline_ = time_limit >= 0;
        deadline_ = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(has_deadline_ ? time_limit : 0.0));
        setup_frames(threshold);
        threshold_ = threshold;
        cur_ = board_.start;
        try {
            const bool prior = s_.prior_min >= 0;
            bool ok = dfs(0, threshold, s_.prior_min, prior ? s_.prior_near.data() : nullptr, s_.prior_color, true);
            if (ok) std::reverse(plan_.begin(), plan_.end());
            return ok ? Outcome::feasible : Outcome::infeasible;
        } catch (Timeout &) {
            return Outcome::timeout;
        }
    }

    const std::vector<std::pair<int, int>> &plan() const { return plan_; }  // (initial region, colour)
    long long nodes() const { return nodes_; }
    const PivotTest &pivot() const { return pivot_; }

    struct ProbeStats {  // Knuth's estimates, one per probe: their count, mean and sum of squared deviations
        long long probes = 0, visited = 0;
        double mean = 0.0, m2 = 0.0;
    };

    // Knuth's random-probe estimate of the nodes within(threshold) visits without its table: `probes` dives
    // from the root (fewer if `seconds` >= 0 run out), each through the same pruned tree (bound, child
    // decisions, commuting-move order, symmetry, prior move) choosing uniformly among the children that
    // survive pruning. The table is neither read nor written (a hit depends on the search's order, which a
    // dive does not follow; what it saves is measured on the refuted horizons instead), nor are the node
    // count and the plan: the search is unchanged.
    ProbeStats probe(int threshold, long long probes, uint64_t seed, double seconds) {
        ProbeStats st;
        setup_frames(threshold);
        std::mt19937_64 rng(seed);
        const auto end = after(seconds);
        for (long long i = 0; i < probes; ++i) {
            if (seconds >= 0 && std::chrono::steady_clock::now() > end) break;
            const double x = dive(threshold, rng, st.visited);
            ++st.probes;
            const double d = x - st.mean;
            st.mean += d / static_cast<double>(st.probes);
            st.m2 += d * (x - st.mean);
        }
        return st;
    }

    // The exact number of nodes of the tree `probe` samples (every move of an open node is a node; solved
    // nodes are leaves), or -1 past `cap` nodes or `seconds` (>= 0). For tests on small boards.
    long long count(int threshold, long long cap, double seconds) {
        setup_frames(threshold);
        cur_ = board_.start;
        count_ = 0;
        count_cap_ = cap;
        count_timed_ = seconds >= 0;
        count_end_ = after(seconds);
        const bool prior = s_.prior_min >= 0;
        try {
            tally(0, threshold, s_.prior_min, prior ? s_.prior_near.data() : nullptr, s_.prior_color, true, false);
        } catch (Timeout &) {
            return -1;
        }
        return count_;
    }

  private:
    struct Timeout {};
    struct Mv {
        int merged, k, c;
    };
    struct Frame {  // one depth's node
        Quot q;
        std::vector<Mv> moves;
        std::vector<char> near;
        std::vector<unsigned char> key, rkey;
        ChildData child;
    };

    Board board_;
    SearchSettings s_;
    int n_, K_;
    bool por_, por_store_;
    bool root_sym_;  // the symmetry restricts the root's moves (a symmetry and no prior move)
    bool useful_;    // only merging moves (s_.useful on a board of one island, no prior, no symmetry)
    Contraction contraction_;
    Bounds bounds_;
    ChildBounds child_;
    Clusters clusters_;
    PivotTest pivot_;
    FailTable table_;
    std::vector<int> merged_, gather_, order_, colour_regions_;
    std::vector<Frame> frames_;
    std::vector<int> cur_;  // the board of the node being searched (initial region -> colour), edited in place
    std::vector<std::pair<int, int>> plan_;
    int kb_ = 0, nb_ = 0, width_ = 1;
    long long nodes_ = 0;
    int threshold_ = 0;
    bool has_deadline_ = false;
    std::chrono::steady_clock::time_point deadline_;
    const volatile int *stop_ = nullptr;
    int stop_len_ = 0;
    volatile long long *counter_ = nullptr;
    std::vector<size_t> survivors_;  // a dive's open children
    long long count_ = 0, count_cap_ = 0;
    bool count_timed_ = false;
    std::chrono::steady_clock::time_point count_end_;

    static std::chrono::steady_clock::time_point after(double seconds) {
        return std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                      std::chrono::duration<double>(seconds >= 0 ? seconds : 0.0));
    }

    void setup_frames(int threshold) {
        kb_ = (n_ + 1) / 2;
        nb_ = (n_ + 7) / 8;
        int w = kb_ + 4 + nb_;
        if (w != width_) {
            width_ = w;
            table_.set_width(w);
        }
        if (static_cast<int>(frames_.size()) < threshold + 2) frames_.resize(threshold + 2);
        for (auto &f : frames_) {
            f.key.assign(width_, 0);
            f.rkey.assign(width_, 0);
            if (por_) f.near.assign(n_, 0);
        }
    }

    void store(const unsigned char *key, uint64_t h, int budget) {
        if (static_cast<long long>(table_.size()) >= s_.table_limit) table_.clear();
        table_.raise(key, h, budget);
    }

    void tick() {
        ++nodes_;
        if ((nodes_ & 255) != 0) return;
        if (counter_) *counter_ = nodes_;
        if (has_deadline_ && std::chrono::steady_clock::now() > deadline_) throw Timeout{};
        if (stop_ && threshold_ < stop_len_ && stop_[threshold_]) throw Timeout{};
    }

    // The key of the board plus the restriction (min P, P's old colour and N[P]) into rk (from k).
    void restricted_key(const unsigned char *k, unsigned char *rk, int prev_min, const char *near_prev,
                        int prev_color) const {
        std::memcpy(rk, k, kb_);
        std::memset(rk + kb_, 0, width_ - kb_);
        rk[kb_] = 0xff;
        rk[kb_ + 1] = static_cast<unsigned char>(prev_min & 0xff);
        rk[kb_ + 2] = static_cast<unsigned char>((prev_min >> 8) & 0xff);
        rk[kb_ + 3] = static_cast<unsigned char>(s_.adjacent ? prev_color : 0xff);
        unsigned char *bits = rk + kb_ + 4;
        for (int v = 0; v < n_; ++v)
            if (near_prev[v]) bits[v / 8] = static_cast<unsigned char>(bits[v / 8] | (1 << (v & 7)));
    }

    // The node's moves, best first (most regions merged); false in `pruned` when the order or the
    // symmetry skipped none. Arguments as in dfs.
    void generate(Frame &f, bool root, int prev_min, const char *near_prev, int prev_color, bool &pruned) {
        const Quot &q = f.q;
        std::vector<Mv> &moves = f.moves;
        moves.clear();
        pruned = false;
        const bool sym = root && root_sym_;
        for (int a = 0; a < q.m; ++a) {
            if (sym && s_.symmetry[q.rep[a]] < q.rep[a] && q.mstart[a + 1] - q.mstart[a] == 1) {
                pruned = true;  // the mirrored solution starts with sigma(r) < r
                continue;
            }
            int only = -1, also = -1;  // >= 0: only these colours commute with neither order skipped
            if (por_ && prev_min >= 0 && q.rep[a] < prev_min) {
                bool indep = true;
                for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i)
                    if (near_prev[q.members[i]]) {
                        indep = false;
                        break;
                    }
                if (indep) {
                    pruned = true;
                    continue;
                }
                // adjacent to P but not containing it (P's smallest region lies in the merged region): the
                // move commutes with P's unless it paints P's old colour (lemma in strengthening.md §2)
                if (s_.adjacent && q.comp[prev_min] != a) {
                    only = prev_color;
                    if (useful_) also = q.color[q.comp[prev_min]];  // P's new colour: left unordered (theorem 3)
                }
            }
            std::fill(merged_.begin(), merged_.end(), 0);
            for (int e = q.astart[a]; e < q.astart[a + 1]; ++e) merged_[q.color[q.adj[e]]]++;
            for (int c = 0; c < K_; ++c) {
                if (c == q.color[a] || (useful_ && merged_[c] == 0)) continue;  // (a board's rule: not "pruned")
                if (only >= 0 && c != only && c != also) {
                    pruned = true;
                    continue;
                }
                moves.push_back({merged_[c], a, c});
            }
        }
        std::stable_sort(moves.begin(), moves.end(), [](const Mv &x, const Mv &y) { return x.merged > y.merged; });
    }

    // The colour bound with each colour's gathering cost raised to its cluster cost (bounds.cluster_costs)
    // exceeds the budget, on a one-island node whose distances and colour counts `c` holds
    // (Clusters::prunes; a child decided at its parent had this test there, ChildBounds::child_outcome).
    bool cluster_prunes(const ChildData &c, const Quot &q, int budget) {
        const int m = q.m;
        if (m > 300) return false;  // (bounds.CLUSTER_REGIONS)
        order_.resize(m);
        for (int a = 0; a < m; ++a) order_[a] = a;
        bounds_.gather_costs(q, order_.data(), m, c.cnt.data(), gather_.data());
        return clusters_.prunes(K_, c.cnt.data(), gather_.data(), budget, [&](int e, int cap) {
            colour_regions_.clear();
            for (int a = 0; a < m; ++a)
                if (q.color[a] == e) colour_regions_.push_back(a);
            const int r = static_cast<int>(colour_regions_.size());
            clusters_.table(r);
            for (int i = 0; i < r; ++i) {
                const int16_t *row = &c.dist[static_cast<size_t>(colour_regions_[i]) * m];
                for (int j = 0; j < r; ++j) clusters_.row(i)[j] = row[colour_regions_[j]];
            }
            return clusters_.at_least(cap);
        });
    }

    // The pivot test (pivot_test.hpp): its layered form at every one-island node, its A* where the plain bound
    // leaves at least `slack` moves of the budget (0, the default: wherever the layered form did not prune).
    bool pivot_prunes(const Quot &q, int budget) {
        const bool slack = s_.pivot.slack <= 0 || !bounds_.prunes(q, budget - s_.pivot.slack);
        if (!slack && !s_.pivot.layered) return false;
        double left = -1.0;
        if (has_deadline_) left = std::max(0.0, std::chrono::duration<double>(deadline_ - std::chrono::steady_clock::now()).count());
        return pivot_.prunes(q, budget, slack, left, bounds_);
    }

    // N[P] over initial regions for the clicked set of current region a
    void mark_near(const Quot &q, int a, char *near) const {
        std::memset(near, 0, n_);
        for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) {
            int v = q.members[i];
            near[v] = 1;
            for (int e = board_.astart[v]; e < board_.astart[v + 1]; ++e) near[board_.adj[e]] = 1;
        }
    }

    // prev_min: the smallest initial region of the previous move's clicked set P (-1: no order imposed);
    // near_prev: N[P] over initial regions; prev_color: the colour P had before it was clicked; checked:
    // the parent decided this node's bound (child_bounds.hpp) and it is one island.
    bool dfs(int depth, int budget, int prev_min, const char *near_prev, int prev_color, bool root = false,
             bool checked = false) {
        tick();
        Frame &f = frames_[depth];
        Quot &q = f.q;
        contraction_.quotient(cur_, q);
        if (one_colour(q)) return true;
        if (!checked && (budget <= 0 || bounds_.prunes(q, budget))) return false;
        const bool one_island = checked || bounds_.single_island();  // read before the children overwrite it
        unsigned char *k = f.key.data();
        std::memset(k, 0, width_);
        pack_board(cur_, n_, k);
        const uint64_t kh = FailTable::hash(k, width_);
        if (table_.find(k, kh) >= budget) return false;
        const bool restricted = por_store_ && prev_min >= 0;
        unsigned char *rk = f.rkey.data();
        uint64_t rh = 0;
        if (restricted) {
            restricted_key(k, rk, prev_min, near_prev, prev_color);
            rh = FailTable::hash(rk, width_);
            if (table_.find(rk, rh) >= budget) return false;
        }
        if (s_.pivot.regions > 0 && one_island && pivot_prunes(q, budget)) {
            store(k, kh, budget);  // a bound of the board alone: no plan within budget, whatever the order
            return false;
        }
        bool pruned;
        generate(f, root, prev_min, near_prev, prev_color, pruned);
        const bool prepared = s_.clusters > 0 && one_island && !f.moves.empty();
        if (prepared) {
            child_.prepare_children(f.child, q, budget - 1);  // (its distances serve the clusters too)
            if (!checked && cluster_prunes(f.child, q, budget)) return false;  // as kamicp.prover.search's bound does
        }
        if (expand(f, depth, budget, one_island, root && root_sym_, prepared)) return true;
        if (!pruned) {
            store(k, kh, budget);
        } else if (restricted) {
            store(rk, rh, budget);
        }
        return false;
    }

    // Tries the frame's moves in order; true (the move appended to plan_) once one leads to a plan.
    bool expand(Frame &f, int depth, int budget, bool one_island, bool sym, bool prepared) {
        const Quot &q = f.q;
        char *near = por_ ? f.near.data() : nullptr;
        const bool fast = one_island && !f.moves.empty();
        if (fast && !prepared) child_.prepare_children(f.child, q, budget - 1);
        for (size_t mi = 0; mi < f.moves.size(); ++mi) {
            const Mv mv = f.moves[mi];
            const int a = mv.k;
            if (fast) {
                int out = child_.child_outcome(f.child, q, a, mv.c, mv.merged, budget - 1);
                if (out == 1) {
                    tick();
                    plan_.emplace_back(q.rep[a], mv.c);
                    return true;
                }
                if (out == 0) {
                    tick();  // the child's node, decided here without building it
                    continue;
                }
            }
            for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) cur_[q.members[i]] = mv.c;
            if (por_) mark_near(q, a, near);
            // after a symmetry-restricted first move the second move is not ordered against it
            bool ok = dfs(depth + 1, budget - 1, sym ? -1 : q.rep[a], near, q.color[a], false, fast);
            for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) cur_[q.members[i]] = q.color[a];
            if (ok) {
                plan_.emplace_back(q.rep[a], mv.c);
                return true;
            }
        }
        return false;
    }

    // dfs's head without the table: false when the node is a leaf (solved, pruned by the bound or the cluster
    // cost, or without moves), else its moves in f.moves and, on a one-island node, its children prepared.
    bool open_node(Frame &f, int budget, int prev_min, const char *near_prev, int prev_color, bool root,
                   bool checked, bool &one_island) {
        Quot &q = f.q;
        contraction_.quotient(cur_, q);
        if (one_colour(q)) return false;
        if (!checked && (budget <= 0 || bounds_.prunes(q, budget))) return false;
        one_island = checked || bounds_.single_island();
        bool pruned;
        generate(f, root, prev_min, near_prev, prev_color, pruned);
        if (f.moves.empty()) return false;
        if (one_island) {
            child_.prepare_children(f.child, q, budget - 1);
            if (!checked && s_.clusters > 0 && cluster_prunes(f.child, q, budget)) return false;
        }
        return true;
    }

    // A child decided at its parent (dfs counts it as a node without building it): solved or pruned.
    bool decided(Frame &f, const Mv &mv, int budget, bool one_island) {
        return one_island && child_.child_outcome(f.child, f.q, mv.k, mv.c, mv.merged, budget - 1) != -1;
    }

    // One probe: the sum over its path of the nodes each depth is estimated to hold (the product of the open
    // children counts above it; decided children counted at their parent's weight).
    double dive(int threshold, std::mt19937_64 &rng, long long &visited) {
        cur_ = board_.start;
        double total = 0.0, weight = 1.0;
        int budget = threshold, prev_min = s_.prior_min, prev_color = s_.prior_color;
        const char *near_prev = s_.prior_min >= 0 ? s_.prior_near.data() : nullptr;
        bool checked = false;
        for (int depth = 0;; ++depth) {
            total += weight;
            ++visited;
            Frame &f = frames_[depth];
            bool one_island = false;
            if (!open_node(f, budget, prev_min, near_prev, prev_color, depth == 0, checked, one_island)) break;
            survivors_.clear();
            for (size_t mi = 0; mi < f.moves.size(); ++mi) {
                if (decided(f, f.moves[mi], budget, one_island)) {
                    total += weight;
                } else {
                    survivors_.push_back(mi);
                }
            }
            if (survivors_.empty()) break;
            std::uniform_int_distribution<size_t> pick(0, survivors_.size() - 1);
            const Mv mv = f.moves[survivors_[pick(rng)]];
            weight *= static_cast<double>(survivors_.size());
            const Quot &q = f.q;
            for (int i = q.mstart[mv.k]; i < q.mstart[mv.k + 1]; ++i) cur_[q.members[i]] = mv.c;
            if (por_) mark_near(q, mv.k, f.near.data());
            prev_min = depth == 0 && root_sym_ ? -1 : q.rep[mv.k];  // as expand orders after the first move
            near_prev = por_ ? f.near.data() : nullptr;
            prev_color = q.color[mv.k];
            checked = one_island;
            --budget;
        }
        return total;
    }

    // count's recursion: dfs without the table, not stopping at a solution.
    void tally(int depth, int budget, int prev_min, const char *near_prev, int prev_color, bool root, bool checked) {
        if (++count_ > count_cap_) throw Timeout{};
        if (count_timed_ && (count_ & 255) == 0 && std::chrono::steady_clock::now() > count_end_) throw Timeout{};
        Frame &f = frames_[depth];
        bool one_island = false;
        if (!open_node(f, budget, prev_min, near_prev, prev_color, root, checked, one_island)) return;
        const Quot &q = f.q;
        char *near = por_ ? f.near.data() : nullptr;
        for (size_t mi = 0; mi < f.moves.size(); ++mi) {
            const Mv mv = f.moves[mi];
            if (decided(f, mv, budget, one_island)) {
                ++count_;
                continue;
            }
            const int a = mv.k;
            for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) cur_[q.members[i]] = mv.c;
            if (por_) mark_near(q, a, near);
            tally(depth + 1, budget - 1, root && root_sym_ ? -1 : q.rep[a], near, q.color[a], false, one_island);
            for (int i = q.mstart[a]; i < q.mstart[a + 1]; ++i) cur_[q.members[i]] = q.color[a];
        }
    }
};

}  // namespace
}  // namespace kamicp
