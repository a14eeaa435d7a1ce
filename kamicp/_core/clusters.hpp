// Unit "clusters": the cluster gathering cost of kamicp/prover/bounds.py (`cluster_costs`, models/bounds.md
// "Clusters") from a one-island node's region distances: before a colour can be one region, the moves
// made are at least the cheapest clustering of (a far-apart sample of) its regions, as a region built by
// h moves spans at most 2h. The same sample as the Python code and the same decision, so both searches
// prune the same nodes; the search only asks whether a cost reaches a threshold (`prunes`), which a
// branch and bound answers faster than the exact dynamic programming over the subsets (`cost`).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

class Clusters {
  public:
    explicit Clusters(int size) : size_(std::max(size, 0)) {
        keep_.assign(static_cast<size_t>(1) << size_, 0);
        groups_.assign(static_cast<size_t>(1) << size_, 0);
    }
    int size() const { return size_; }

    // The distance table of r regions (ascending) to fill before cost() or at_least(): the distance of the
    // i-th to the j-th at row(i)[j]; rows are padded to a multiple of 8 with zeros (vectorised sampling).
    int16_t *table(int r) {
        r_ = r;
        stride_ = (r + 7) & ~7;
        local_.resize(static_cast<size_t>(r) * stride_);
        for (int i = 0; i < r; ++i) std::fill(row(i) + r, row(i) + stride_, 0);  // (the caller fills the rest)
        return local_.data();
    }
    int16_t *row(int i) { return &local_[static_cast<size_t>(i) * stride_]; }

    // bounds.cluster_cost of bounds._spread_sample over the table's regions.
    int cost() {
        sample();
        return exact();
    }

    // cost() >= cap, decided without the exact value. Tables of at most CACHE_REGIONS regions are
    // remembered (a slot per hash, compared in full): children share most colours' distances with their
    // siblings, so most tables were seen before; a slot keeps the sample and the range of the cost that
    // earlier questions established.
    bool at_least(int cap) {
        if (cap <= 0) return true;
        Slot *slot = r_ <= CACHE_REGIONS ? find() : nullptr;
        if (slot && slot->r == r_) {  // seen: the sample is known, and maybe the answer
            if (cap <= slot->lo) return true;
            if (cap >= slot->hi) return false;
            points_.assign(slot->points, slot->points + slot->n);
            sample_table();
        } else {
            sample();
        }
        const bool yes = !cheaper(0, 0, cap);
        if (slot) {
            if (slot->r != r_) {  // a new entry (replacing the slot's, if any)
                slot->r = r_;
                slot->key = key_;
                slot->table.assign(local_.begin(), local_.end());
                slot->n = n_;
                std::copy(points_.begin(), points_.end(), slot->points);
                slot->lo = 0;
                slot->hi = 1 << 30;
            }
            if (yes) slot->lo = std::max(slot->lo, cap);
            else slot->hi = std::min(slot->hi, cap);
        }
        return yes;
    }

    // Does the colour bound of one island with each colour's gathering cost raised to its cluster cost
    // (bounds.colour_bound with bounds.cluster_costs) exceed `budget`? cnt, gather: the island's colour
    // counts and gather costs (K colours); at_least(e, cap): is colour e's cluster cost >= cap (asked only
    // for colours of three or more regions). With p >= 2 colours present, the bound for a final colour d
    // is (p - 1) + min over the other present e of max(gather, cluster) (p + the least over all e when d
    // is absent), so it exceeds the budget iff every present colour's max(gather, cluster) reaches
    // cap = budget - p + 2. A cluster cost is at most its sample size - 1 (one region keeps the colour,
    // each other is a group of cost 1), so a colour whose largest possible cost stays below cap decides
    // "no" at once; the others are asked cheapest first, and the first one below cap ends the test.
    template <class AtLeast>
    bool prunes(int K, const int *cnt, const int *gather, int budget, AtLeast &&at_least_fn) {
        int present = 0;
        for (int e = 0; e < K; ++e) present += cnt[e] > 0;
        if (present < 2) return false;
        const int cap = budget - present + 2;
        ask_.clear();
        for (int e = 0; e < K; ++e) {
            if (cnt[e] == 0 || gather[e] >= cap) continue;
            int hi = cnt[e] >= 3 ? std::max(gather[e], std::min(size_, cnt[e]) - 1) : gather[e];
            if (hi < cap) return false;
            ask_.emplace_back(hi, e);
        }
        std::sort(ask_.begin(), ask_.end());
        for (const auto &he : ask_)
            if (!at_least_fn(he.second, cap)) return false;
        return true;
    }

  private:
    static constexpr int CACHE_REGIONS = 32;      // (a slot holds at most 32 x 32 distances: 2 KB)
    static constexpr size_t CACHE_SLOTS = 8192;   // (at most 16 MB)
    struct Slot {
        uint64_t key = 0;
        int r = -1, n = 0, lo = 0, hi = 1 << 30;  // cost >= lo, cost < hi
        int points[16] = {0};
        std::vector<int16_t> table;
    };
    std::vector<Slot> cache_;
    uint64_t key_ = 0;

    // The slot of the table (r set to -1 in the returned slot when it holds another table).
    Slot *find() {
        if (cache_.empty()) cache_.resize(CACHE_SLOTS);
        uint64_t lane[4] = {static_cast<uint64_t>(r_), 1, 2, 3};  // (four independent chains)
        const size_t words = local_.size() * sizeof(int16_t) / 8;  // (rows of a multiple of 8 entries: 2 words)
        for (size_t i = 0; i < words; i += 4)
            for (size_t j = 0; j < 4 && i + j < words; ++j) {
                uint64_t w;
                std::memcpy(&w, reinterpret_cast<const char *>(local_.data()) + 8 * (i + j), 8);
                lane[j] = (lane[j] ^ w) * 0xff51afd7ed558ccdULL;
                lane[j] ^= lane[j] >> 29;
            }
        uint64_t h = 0;
        for (uint64_t l : lane) h = (h ^ l) * 0x9e3779b97f4a7c15ULL;
        key_ = h;
        Slot &slot = cache_[(h ^ (h >> 32)) & (CACHE_SLOTS - 1)];
        if (slot.r == r_ && slot.key == h && slot.table.size() == local_.size() &&
            std::memcmp(slot.table.data(), local_.data(), local_.size() * sizeof(int16_t)) == 0)
            return &slot;
        slot.r = -1;  // (taken over by this table)
        return &slot;
    }

    int size_, n_ = 0, r_ = 0, stride_ = 0;
    std::vector<int16_t> local_;  // the table (r rows of stride_)
    std::vector<int> keep_, groups_, points_, picked_;
    std::vector<int16_t> gap_;  // the sample's least distance to the picks so far
    std::vector<int16_t> pd_;                 // the sample's n x n distances
    std::vector<int> half_;                   // the sample's ceil(distance / 2)
    std::vector<std::pair<int, int>> ask_;    // (largest possible cost, colour)
    int gmask_[16] = {0}, gkeep_[16] = {0};  // branch and bound: the groups so far (group 0 keeps the colour)
    int ngroups_ = 0;

    // bounds._spread_sample: farthest-point picks from every (len // 24)-th start; the pick with the largest
    // least pairwise distance (ties: the first start); each pick the largest gap, ties the smallest region.
    // A pick's gap when it is picked is its least distance to the earlier picks, so the least pairwise
    // distance is the least of those gaps, and a start stops once it cannot beat the best one.
    void sample() {
        const int r = r_, W = stride_;
        points_.clear();
        if (r <= size_) {
            for (int i = 0; i < r; ++i) points_.push_back(i);
        } else {
            int best_least = -1;
            gap_.resize(W);
            picked_.resize(size_);
            for (int s = 0; s < r; s += std::max(1, r / 24)) {
                picked_[0] = s;
                int top = gaps<true>(row(s)), least = 1 << 30, k = 1;
                while (k < size_) {
                    least = std::min(least, top);
                    if (least <= best_least) break;
                    int far = 0;
                    while (gap_[far] != top) ++far;  // the first maximum is the smallest region (pads are 0)
                    picked_[k++] = far;
                    if (k == size_) break;
                    top = gaps<false>(row(far));
                }
                if (k == size_ && least > best_least) {
                    best_least = least;
                    points_ = picked_;
                }
            }
        }
        sample_table();
    }

    // The sample's distances and halves from the table (points_ chosen).
    void sample_table() {
        n_ = static_cast<int>(points_.size());
        pd_.resize(static_cast<size_t>(n_) * n_);
        half_.resize(static_cast<size_t>(n_) * n_);
        for (int i = 0; i < n_; ++i)
            for (int j = 0; j < n_; ++j) {
                int16_t v = row(points_[i])[points_[j]];
                pd_[static_cast<size_t>(i) * n_ + j] = v;
                half_[static_cast<size_t>(i) * n_ + j] = (v + 1) / 2;
            }
    }

    // gap = d (First) or min(gap, d), over the padded row; returns the largest gap. (With SSE2, eight lanes
    // at once: the plain loop is not vectorised at -O2.)
    template <bool First>
    int gaps(const int16_t *d) {
        int16_t *g = gap_.data();
#if defined(__SSE2__)
        __m128i lane = _mm_set1_epi16(-1);
        for (int i0 = 0; i0 < stride_; i0 += 8) {
            __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(d + i0));
            if (!First) v = _mm_min_epi16(v, _mm_loadu_si128(reinterpret_cast<const __m128i *>(g + i0)));
            _mm_storeu_si128(reinterpret_cast<__m128i *>(g + i0), v);
            lane = _mm_max_epi16(lane, v);
        }
        lane = _mm_max_epi16(lane, _mm_shuffle_epi32(lane, _MM_SHUFFLE(1, 0, 3, 2)));  // halves
        lane = _mm_max_epi16(lane, _mm_shuffle_epi32(lane, _MM_SHUFFLE(2, 3, 0, 1)));  // pairs of words
        lane = _mm_max_epi16(lane, _mm_shufflelo_epi16(lane, _MM_SHUFFLE(2, 3, 0, 1)));  // words
        return static_cast<int16_t>(_mm_cvtsi128_si32(lane) & 0xffff);
#else
        int top = -1;
        for (int i = 0; i < stride_; ++i) {
            g[i] = First ? d[i] : std::min(g[i], d[i]);
            top = std::max(top, static_cast<int>(g[i]));
        }
        return top;
#endif
    }

    // bounds.cluster_cost of the sample: exact, by dynamic programming over its subsets (3^n steps)
    int exact() {
        const int n = n_, full = (1 << n) - 1;
        keep_[0] = 0;
        for (int mask = 1; mask <= full; ++mask) {
            int low = __builtin_ctz(mask), rest = mask & (mask - 1), far = 0;
            for (int j = 0; j < n; ++j)
                if (rest >> j & 1) far = std::max(far, static_cast<int>(pd_[static_cast<size_t>(low) * n + j]));
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

    // Is there a partition of sample points i.. (added to the groups so far, of cost `spent`) with total
    // cost below cap? Each point joins group 0 (cost ceil(diam / 2)), another group (max(1, ceil(diam / 2)))
    // or opens a group (1); a group's cost only grows as points join it, so a branch stops at cap.
    bool cheaper(int i, int spent, int cap) {
        if (i == n_) return true;
        const int *hi = &half_[static_cast<size_t>(i) * n_];
        if (i == 0) {
            ngroups_ = 1;
            gmask_[0] = 0;
            gkeep_[0] = 0;
        }
        for (int g = 0; g < ngroups_; ++g) {
            int keep = gkeep_[g];
            for (int mask = gmask_[g]; mask; mask &= mask - 1) keep = std::max(keep, hi[__builtin_ctz(mask)]);
            int before = g == 0 ? gkeep_[0] : std::max(1, gkeep_[g]);
            int after = g == 0 ? keep : std::max(1, keep);
            if (spent + after - before >= cap) continue;
            int old = gkeep_[g];
            gmask_[g] |= 1 << i;
            gkeep_[g] = keep;
            bool found = cheaper(i + 1, spent + after - before, cap);
            gmask_[g] &= ~(1 << i);
            gkeep_[g] = old;
            if (found) return true;
        }
        if (spent + 1 < cap) {  // a new group of its own
            gmask_[ngroups_] = 1 << i;
            gkeep_[ngroups_] = 0;
            ++ngroups_;
            bool found = cheaper(i + 1, spent + 1, cap);
            --ngroups_;
            if (found) return true;
        }
        return false;
    }
};

}  // namespace
}  // namespace kamicp
