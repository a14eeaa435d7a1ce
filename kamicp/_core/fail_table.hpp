// Unit "transposition table" of IDA*: per board key, the largest budget proven insufficient from it.
// Exact keys (no false hits: a hit is a proof step, so hashes only index); open addressing, grows by
// doubling; the owner clears it when its entry limit is reached, which bounds memory.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace kamicp {
namespace {  // internal linkage: the units form one translation unit (module.cpp), inlined into each other

class FailTable {
  public:
    void set_width(int w) {
        width_ = w;
        clear();
    }
    size_t size() const { return count_; }
    void clear() {
        cap_ = 1024;
        count_ = 0;
        hash_.assign(cap_, 0);
        val_.assign(cap_, 0);
        keys_.assign(cap_ * width_, 0);
    }
    // the stored budget for key (width_ bytes), or -1
    int find(const unsigned char *key, uint64_t h) const {
        size_t i = h & (cap_ - 1);
        while (hash_[i] != 0) {
            if (hash_[i] == h && std::memcmp(&keys_[i * width_], key, width_) == 0) return val_[i];
            i = (i + 1) & (cap_ - 1);
        }
        return -1;
    }
    // stores max(stored, budget)
    void raise(const unsigned char *key, uint64_t h, int budget) {
        if ((count_ + 1) * 4 > cap_ * 3) grow();  // load at most 3/4
        size_t i = h & (cap_ - 1);
        while (hash_[i] != 0) {
            if (hash_[i] == h && std::memcmp(&keys_[i * width_], key, width_) == 0) {
                if (val_[i] < budget) val_[i] = budget;
                return;
            }
            i = (i + 1) & (cap_ - 1);
        }
        hash_[i] = h;
        val_[i] = budget;
        std::memcpy(&keys_[i * width_], key, width_);
        ++count_;
    }
    static uint64_t hash(const unsigned char *key, int width) {
        uint64_t h = 0x243F6A8885A308D3ULL;
        int i = 0;
        for (; i + 8 <= width; i += 8) {
            uint64_t w;
            std::memcpy(&w, key + i, 8);
            h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
            h ^= h >> 29;
        }
        for (; i < width; ++i) {
            h = (h ^ key[i]) * 0x100000001B3ULL;
        }
        h ^= h >> 32;
        h *= 0xD6E8FEB86659FD93ULL;
        h ^= h >> 32;
        return h | 1;  // 0 marks an empty slot
    }

  private:
    int width_ = 1;
    size_t cap_ = 0, count_ = 0;
    std::vector<uint64_t> hash_;
    std::vector<int> val_;
    std::vector<unsigned char> keys_;

    void grow() {
        std::vector<uint64_t> oh;
        std::vector<int> ov;
        std::vector<unsigned char> ok;
        oh.swap(hash_);
        ov.swap(val_);
        ok.swap(keys_);
        size_t ocap = cap_;
        cap_ *= 2;
        hash_.assign(cap_, 0);
        val_.assign(cap_, 0);
        keys_.assign(cap_ * width_, 0);
        for (size_t j = 0; j < ocap; ++j) {
            if (oh[j] == 0) continue;
            size_t i = oh[j] & (cap_ - 1);
            while (hash_[i] != 0) i = (i + 1) & (cap_ - 1);
            hash_[i] = oh[j];
            val_[i] = ov[j];
            std::memcpy(&keys_[i * width_], &ok[j * width_], width_);
        }
    }
};

}  // namespace
}  // namespace kamicp
