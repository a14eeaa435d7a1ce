// Unit "pivot test": the pivot relation (models/pivot-free.md) as a pruning test at a search node. On one
// island, for every region v and final colour d, pivot(v, d) <= 2 free(d) - [colour(v) != d], so a node
// whose board needs more than `budget` free moves for every final colour can be pruned when, for each d,
// either the colour bound for d exceeds the budget or some far region v has a pivot game of at least
// 2 budget + 1 - [colour(v) != d] moves. The pivot games come from the fixed-pivot A* (flood_astar.hpp),
// asked only whether a game of at most 2 budget moves exists (its limit): its optimum, or the lower bound
// it proved when its cap on stored sets stopped it; a cap only weakens the test, never makes it wrong.
// The test costs one A* run per far region (milliseconds), so the search asks it only where the plain bound
// leaves slack under the budget (ida.hpp): where it does not, the pivot game rarely adds enough to prune.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

#include "bfs.hpp"
#include "bounds.hpp"
#include "contraction.hpp"
#include "flood_astar.hpp"

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

struct PivotSettings {
    int regions = 0;          // far regions per test (0: the test is off)
    int slack = 1;            // only nodes whose plain bound leaves at least this many moves of the budget
    long long cap = 200000;   // flood sets an A* run may store
};

class PivotTest {
  public:
    PivotTest(int n, int K, PivotSettings s)
        : s_(s), K_(K), bfs_(n), dist_(std::max(n, 1), 0), gap_(std::max(n, 1), 0), cnt_(K, 0), g_(K, 0),
          open_(K, 0) {}

    const PivotSettings &settings() const { return s_; }
    long long tests() const { return tests_; }
    long long prunes_found() const { return prunes_; }
    long long astar_runs() const { return runs_; }

    // Whether to ask the test at the next node where it may be asked: while it has pruned at least one node in
    // ten lately (a moving average over its answers), else at every 16th such node only, to notice when it
    // starts to pay (on levels where it prunes nothing its A* runs cost more than the search saves).
    bool wanted() {
        ++offered_;
        return rate_ >= 0.1 || (offered_ & 15) == 0;
    }

    // No plan of at most `budget` moves from the one-island board q, by the pivot relation joined with the
    // colour bound per final colour. `seconds` < 0: no limit; an A* run stopped by the time limit still
    // answers with what it proved. `gather_costs` is the bound's (Bounds::gather_costs).
    template <class Gather>
    bool prunes(const Quot &q, int budget, double seconds, Gather gather_costs) {
        ++tests_;
        const int m = q.m;
        if (m < 2 || K_ > 15 || budget < 0) return false;
        std::fill(cnt_.begin(), cnt_.end(), 0);
        for (int a = 0; a < m; ++a) cnt_[q.color[a]]++;
        order_.resize(m);
        for (int a = 0; a < m; ++a) order_[a] = a;
        gather_costs(q, order_.data(), m, cnt_.data(), g_.data());
        int open = 0;  // final colours not yet shown to need more than `budget` moves
        for (int d = 0; d < K_; ++d) open += open_[d] = colour_bound(K_, cnt_.data(), g_.data(), d) <= budget;
        if (open == 0) return answer(true);
        build_board(q);
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds < 0 ? 1e12 : seconds);
        for (int v : far_regions(q)) {
            const double left = std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count();
            if (left <= 0) break;
            ++runs_;
            auto astar = make_flood_astar(FloodBoard(adj_, colours_, K_, v, -1), s_.cap, 2 * budget, 1, true);
            const FloodStatus st = astar->run(seconds < 0 ? -1.0 : left);
            const int game = st == FloodStatus::optimal ? astar->best_length() : astar->lower();
            for (int d = 0; d < K_; ++d)
                if (open_[d] && game + (q.color[v] != d) >= 2 * budget + 1) open_[d] = 0, --open;
            if (open == 0) return answer(true);
        }
        return answer(false);
    }

  private:
    PivotSettings s_;
    int K_;
    Bfs bfs_;
    std::vector<int> dist_, gap_, cnt_, g_, order_, colours_, picks_;
    std::vector<char> open_;
    std::vector<std::vector<int>> adj_;
    long long tests_ = 0, prunes_ = 0, runs_ = 0, offered_ = 0;
    double rate_ = 1.0;  // the moving average of the test's answers (1: pruned)

    bool answer(bool pruned) {
        prunes_ += pruned;
        rate_ = 0.98 * rate_ + (pruned ? 0.02 : 0.0);
        return pruned;
    }

    void build_board(const Quot &q) {
        adj_.assign(q.m, {});
        colours_.assign(q.color.begin(), q.color.begin() + q.m);
        for (int a = 0; a < q.m; ++a) adj_[a].assign(q.adj.begin() + q.astart[a], q.adj.begin() + q.astart[a + 1]);
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
