// Unit "Katamino bitboard search": exact cover of at most 64 cells by distinct pentominoes, the way the
// fastest pentomino solvers do it. The board is one 64-bit word (bit i = cell i, in the order the caller
// chose: kamicp/katamino/bitboard.py numbers the free cells along the board's short side first, so the
// first empty cell stays on a short frontier); every placement of every piece is a precomputed mask,
// bucketed by its lowest cell and its piece; the search always covers the first empty cell (every
// branch covers it, so no solution is met twice); the pieces left are a bitmask; after each placement
// the empty areas it touches are flood-filled and a size that is not a multiple of 5 cuts the branch
// (a pentomino lies inside one connected area, so each area is tiled on its own). Symmetry breaking is
// the caller's: it passes one asymmetric piece with one placement per orbit (models/katamino.md).
// Knows nothing of Python; module.cpp binds it.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp)

enum class PackEnd { complete = 0, limit = 1, timeout = 2 };

struct PackSettings {
    long long limit = -1;  // stop after this many solutions (-1: count them all)
    long long keep = 0;    // solutions kept (as placement indices), at most this many (-1: all)
    double seconds = -1;   // time limit (< 0: none)
    const volatile int *stop = nullptr;  // stop as on a timeout once *stop is non-zero (Ctrl-C)
};

class Packing {
  public:
    // `cells` bits; `neighbours[i]` the mask of cell i's neighbours; placement j covers `masks[j]` with
    // piece `piece[j]` (0..pieces-1). Masks must lie within the cells.
    Packing(int cells, std::vector<uint64_t> neighbours, int pieces, const std::vector<uint64_t> &masks,
            const std::vector<int> &piece)
        : n_(cells), k_(pieces), nbr_(std::move(neighbours)),
          full_(cells >= 64 ? ~0ULL : ((1ULL << cells) - 1)) {
        std::vector<std::vector<int>> bucket(static_cast<size_t>(n_) * k_);
        for (size_t j = 0; j < masks.size(); ++j)
            if (masks[j]) bucket[static_cast<size_t>(lowest(masks[j])) * k_ + piece[j]].push_back(static_cast<int>(j));
        start_.push_back(0);
        for (auto &b : bucket) {
            for (int j : b) {
                mask_.push_back(masks[j]);
                halo_.push_back(halo(masks[j]));
                index_.push_back(j);
            }
            start_.push_back(static_cast<int>(mask_.size()));
        }
    }

    PackEnd run(const PackSettings &s) {
        s_ = s;
        count_ = nodes_ = 0;
        solutions_.clear();
        chosen_.assign(k_, 0);
        has_deadline_ = s.seconds >= 0;
        deadline_ = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(s.seconds < 0 ? 0 : s.seconds));
        try {
            search(~full_, k_ >= 64 ? ~0ULL : ((1ULL << k_) - 1), 0);
        } catch (const Stop &stop) {
            return stop.end;
        }
        return PackEnd::complete;
    }

    long long count() const { return count_; }
    long long nodes() const { return nodes_; }
    const std::vector<std::vector<int>> &solutions() const { return solutions_; }

  private:
    struct Stop {
        PackEnd end;
    };

    static int lowest(uint64_t m) { return __builtin_ctzll(m); }

    uint64_t halo(uint64_t m) const {
        uint64_t h = 0;
        for (uint64_t b = m; b; b &= b - 1) h |= nbr_[lowest(b)];
        return h & ~m;
    }

    // Does some empty area touching `seeds` have a size that is not a multiple of 5?
    bool odd_area(uint64_t empty, uint64_t seeds) const {
        while (seeds) {
            uint64_t area = seeds & -seeds, frontier = area;
            while (frontier) {
                uint64_t grow = 0;
                for (uint64_t b = frontier; b; b &= b - 1) grow |= nbr_[lowest(b)];
                frontier = grow & empty & ~area;
                area |= frontier;
            }
            if (__builtin_popcountll(area) % 5) return true;
            seeds &= ~area;
        }
        return false;
    }

    void tick() {
        if ((++nodes_ & 0x3fff) != 0) return;
        if (s_.stop && *s_.stop) throw Stop{PackEnd::timeout};
        if (has_deadline_ && std::chrono::steady_clock::now() > deadline_) throw Stop{PackEnd::timeout};
    }

    void found(int depth) {
        if (s_.keep < 0 || static_cast<long long>(solutions_.size()) < s_.keep) {
            std::vector<int> sol(chosen_.begin(), chosen_.begin() + depth);
            solutions_.push_back(std::move(sol));
        }
        if (++count_ == s_.limit) throw Stop{PackEnd::limit};
    }

    void search(uint64_t filled, uint64_t left, int depth) {
        tick();
        if (!left) {
            if (filled == ~0ULL) found(depth);
            return;
        }
        const int cell = lowest(~filled);
        const size_t row = static_cast<size_t>(cell) * k_;
        for (uint64_t ps = left; ps; ps &= ps - 1) {
            const int p = lowest(ps);
            for (int j = start_[row + p]; j < start_[row + p + 1]; ++j) {
                const uint64_t m = mask_[j];
                if (m & filled) continue;
                const uint64_t next = filled | m;
                if (odd_area(~next, halo_[j] & ~next)) continue;
                chosen_[depth] = index_[j];
                search(next, left & ~(1ULL << p), depth + 1);
            }
        }
    }

    int n_, k_;
    std::vector<uint64_t> nbr_;
    uint64_t full_;
    std::vector<uint64_t> mask_, halo_;  // by (lowest cell, piece) bucket
    std::vector<int> start_, index_;     // bucket b is mask_[start_[b] .. start_[b + 1]); index_: caller's j
    PackSettings s_;
    long long count_ = 0, nodes_ = 0;
    std::vector<int> chosen_;
    std::vector<std::vector<int>> solutions_;
    bool has_deadline_ = false;
    std::chrono::steady_clock::time_point deadline_;
};

}  // namespace
}  // namespace kamicp
