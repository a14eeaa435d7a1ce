// Unit "clusters": the cluster gathering cost of kamicp/bounds.py (`cluster_costs`, models/bounds.md
// "Clusters") from a one-island node's region distances: before a colour can be one region, the moves
// made are at least the cheapest clustering of (a far-apart sample of) its regions, as a region built by
// h moves spans at most 2h. The same sample and the same exact dynamic programming as the Python code, so
// both searches prune the same nodes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

class Clusters {
  public:
    explicit Clusters(int size) : size_(std::max(size, 0)) {
        keep_.assign(static_cast<size_t>(1) << size_, 0);
        groups_.assign(static_cast<size_t>(1) << size_, 0);
    }
    int size() const { return size_; }

    // bounds.cluster_cost of bounds._spread_sample(regions): `regions` ascending, dist the m x m distances.
    int cost(const std::vector<int> &regions, const int16_t *dist, int m) {
        sample(regions, dist, m);
        const int n = static_cast<int>(points_.size());
        const int full = (1 << n) - 1;
        auto d = [&](int a, int b) { return static_cast<int>(dist[static_cast<size_t>(a) * m + b]); };
        keep_[0] = 0;
        for (int mask = 1; mask <= full; ++mask) {
            int low = __builtin_ctz(mask), rest = mask & (mask - 1), far = 0;
            for (int j = 0; j < n; ++j)
                if (rest >> j & 1) far = std::max(far, d(points_[low], points_[j]));
            keep_[mask] = std::max(keep_[rest], (far + 1) / 2);
        }
        groups_[0] = 0;
        for (int mask = 1; mask <= full; ++mask) {
            int low = mask & -mask, rest = mask ^ low, best = 1 << 30;
            for (int sub = rest;; sub = (sub - 1) & rest) {
                int group = sub | low;
                best = std::min(best, std::max(1, keep_[group]) + groups_[mask ^ group]);
                if (sub == 0) break;
            }
            groups_[mask] = best;
        }
        int best = groups_[full];
        for (int sub = full; sub; sub = (sub - 1) & full) best = std::min(best, keep_[sub] + groups_[full ^ sub]);
        return best;
    }

  private:
    int size_;
    std::vector<int> keep_, groups_, points_, picked_, gap_;

    // bounds._spread_sample: farthest-point picks from every (len // 24)-th start; the pick with the largest
    // least pairwise distance (ties: the first start); each pick the largest gap, ties the smallest region
    void sample(const std::vector<int> &regions, const int16_t *dist, int m) {
        const int r = static_cast<int>(regions.size());
        if (r <= size_) {
            points_ = regions;
            return;
        }
        auto d = [&](int a, int b) { return static_cast<int>(dist[static_cast<size_t>(a) * m + b]); };
        int best_least = -1;
        gap_.resize(r);
        for (int s = 0; s < r; s += std::max(1, r / 24)) {
            picked_.assign(1, regions[s]);
            for (int i = 0; i < r; ++i) gap_[i] = d(regions[s], regions[i]);
            while (static_cast<int>(picked_.size()) < size_) {
                int far = 0;
                for (int i = 1; i < r; ++i)
                    if (gap_[i] > gap_[far]) far = i;  // (ascending regions: the first maximum is the smallest)
                picked_.push_back(regions[far]);
                for (int i = 0; i < r; ++i) gap_[i] = std::min(gap_[i], d(regions[far], regions[i]));
            }
            int least = 1 << 30;
            for (size_t i = 0; i < picked_.size(); ++i)
                for (size_t j = i + 1; j < picked_.size(); ++j) least = std::min(least, d(picked_[i], picked_[j]));
            if (least > best_least) {
                best_least = least;
                points_ = picked_;
            }
        }
    }
};

}  // namespace
}  // namespace kamicp
