// Unit "pivot test": the pivot relation (models/pivot-free.md) as a pruning test at a search node. On one
// island, for every region v and final colour d, pivot(v, d) <= 2 free(d) - [colour(v) != d], so a node
// whose board needs more than `budget` free moves for every final colour can be pruned when, for each d,
// either the colour bound for d exceeds the budget or some far region v has a pivot game of at least
// 2 budget + 1 - [colour(v) != d] moves. The pivot games come from the fixed-pivot A* (flood_astar.hpp),
// asked only whether a game of at most 2 budget moves exists (its limit): its optimum, or the lower bound
// it proved when its cap on stored sets stopped it; a cap only weakens the test, never makes it wrong.
// The layered bound of each far region's pivot game (a lower bound on its optimum, models/bounds.md) is tried
// first: a walk over bitsets, asked at every one-island node the search builds. The A* costs one run per far
// region (milliseconds), so it is asked where the layered form did not prune (or, with a slack setting, only
// where the plain bound leaves that much room under the budget: ida.hpp) and while it pays.
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>
#include <vector>

#include "bfs.hpp"
#include "bounds.hpp"
#include "contraction.hpp"
#include "flood_astar.hpp"

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

struct PivotSettings {
    int regions = 0;          // far regions per test (0: the test is off)
    int slack = 0;            // the A* only where the plain bound leaves at least this many moves (0: everywhere)
    long long cap = 200000;   // flood sets an A* run may store
    bool layered = true;      // the layered bound of the pivot game first, at every node asked
};

class PivotTest {
  public:
    PivotTest(int n, int K, PivotSettings s)
        : s_(s), K_(K), bfs_(n), dist_(std::max(n, 1), 0), gap_(std::max(n, 1), 0), cnt_(K, 0), g_(K, 0),
          open_(K, 0) {}

    long long asked() const { return asked_; }
    long long by_layered() const { return by_layered_; }
    long long astar_asked() const { return astar_asked_; }
    long long by_astar() const { return by_astar_; }
    long long astar_runs() const { return runs_; }

    // No plan of at most `budget` moves from the one-island board q, by the pivot relation joined with the colour
    // bound per final colour: first with the layered bound of each far region's pivot game (a walk over bitsets,
    // cheap enough for every node), then, where `slack` (the plain bound leaves room) and the test pays lately,
    // with the pivot A*'s optimum. `seconds` < 0: no limit; an A* run stopped by the time limit still answers
    // with what it proved. The colour bound's gathering costs are the search's own (`bounds`).
    bool prunes(const Quot &q, int budget, bool slack, double seconds, Bounds &bounds) {
        const int m = q.m;
        if (m < 2 || K_ > 15 || budget < 0) return false;
        ++asked_;
        std::fill(cnt_.begin(), cnt_.end(), 0);
        for (int a = 0; a < m; ++a) cnt_[q.color[a]]++;
        order_.resize(m);
        for (int a = 0; a < m; ++a) order_[a] = a;
        bounds.gather_costs(q, order_.data(), m, cnt_.data(), g_.data());
        open_count_ = 0;  // final colours not yet shown to need more than `budget` moves
        for (int d = 0; d < K_; ++d) open_count_ += open_[d] = colour_bound(K_, cnt_.data(), g_.data(), d) <= budget;
        if (open_count_ == 0) return ++by_layered_, true;
        board_.emplace(q.m, K_, q.astart.data(), q.adj.data(), q.color.data(), 0);
        const std::vector<int> &far = far_regions(q);  // (all reached from region 0: the board's island)
        if (s_.layered) {
            for (int v : far)
                if (close(q, v, layered_game(v, 2 * budget + 1), budget)) return ++by_layered_, true;
        }
        if (!slack || !wanted()) return false;
        ++astar_asked_;
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds < 0 ? 1e12 : seconds);
        for (int v : far) {
            const double left = std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count();
            if (left <= 0) break;
            ++runs_;
            FloodBoard board = *board_;
            board.start = v;
            auto astar = make_flood_astar(std::move(board), s_.cap, 2 * budget, 1, true);
            const FloodStatus st = astar->run(seconds < 0 ? -1.0 : left);
            const int game = st == FloodStatus::optimal ? astar->best_length() : astar->lower();
            if (close(q, v, game, budget)) return answer(true);
        }
        return answer(false);
    }

  private:
    PivotSettings s_;
    int K_;
    Bfs bfs_;
    std::vector<int> dist_, gap_, cnt_, g_, order_, picks_;
    std::vector<char> open_;
    std::optional<FloodBoard> board_;  // the node's board (start: region 0; the far regions' games copy it)
    std::vector<Word> root_, front_;
    int open_count_ = 0;
    long long asked_ = 0, by_layered_ = 0, astar_asked_ = 0, by_astar_ = 0, runs_ = 0, offered_ = 0;
    double rate_ = 1.0;  // the moving average of the A* test's answers (1: pruned)

    // Whether to run the A* at the next node where it may: while it has pruned at least one node in ten lately
    // (a moving average over its answers), else at every 16th such node only, to notice when it starts to pay
    // (on levels where it prunes nothing its runs cost more than the search saves).
    bool wanted() {
        ++offered_;
        return rate_ >= 0.1 || (offered_ & 15) == 0;
    }

    bool answer(bool pruned) {
        by_astar_ += pruned;
        rate_ = 0.98 * rate_ + (pruned ? 0.02 : 0.0);
        return pruned;
    }

    // Closes the final colours d for which a pivot game of at least `game` moves from v shows more than `budget`
    // free moves (game + [colour(v) != d] >= 2 budget + 1); true once none is open.
    bool close(const Quot &q, int v, int game, int budget) {
        for (int d = 0; d < K_; ++d)
            if (open_[d] && game + (q.color[v] != d) >= 2 * budget + 1) open_[d] = 0, --open_count_;
        return open_count_ == 0;
    }

    // The layered bound of the pivot game from v (models/bounds.md, "The layered bound"), a lower bound on its
    // optimum; the walk stops once it exceeds `limit`.
    int layered_game(int v, int limit) {
        const FloodBoard &board = *board_;  // (its start is not read: the walk starts from root_)
        root_.assign(board.W, 0);
        front_.assign(board.W, 0);
        root_[v / 64] |= Word{1} << (v % 64);
        board.frontier<0>(root_.data(), front_.data());
        Layered<0> layered(board);
        return layered(root_.data(), front_.data(), limit);
    }

    // Farthest-point picks from an end of a sweep (as kamicp/prover/pivot_bound.py's far_regions does on large
    // islands): the pivot game from a central region is short, so the test asks far ones.
    const std::vector<int> &far_regions(const Quot &q) {
        picks_.clear();
        int far;
        bfs_.full(q, 0, dist_, far);
        picks_.push_back(far);
        bfs_.full(q, far, gap_, far);
        while (static_cast<int>(picks_.size()) < std::min(s_.regions, q.m)) {
            int best = 0;
            for (int a = 1; a < q.m; ++a)
                if (gap_[a] > gap_[best]) best = a;
            if (gap_[best] == 0) break;
            picks_.push_back(best);
            bfs_.full(q, best, dist_, far);
            for (int a = 0; a < q.m; ++a) gap_[a] = std::min(gap_[a], dist_[a]);
        }
        return picks_;
    }
};

}  // namespace
}  // namespace kamicp
